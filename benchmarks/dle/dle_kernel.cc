// Times the move generator of zizhang-qiu/doudizhu_learning_environment (DLE)
// called from C++, the way its DoudizhuState::LegalMoves runs it in the play
// phase (PASS for a response, the rocket, then the search for the rival's
// play type).  Built as a shared library by benchmarks/compare.py when
// DDZ_DLE_DIR points at a DLE source tree, and loaded with ctypes into the
// process that times our kernel, so that the two alternate round by round
// under the same load; our own code, linking DLE's doudizhu_lib.
//
// C API (every array owned by the caller):
//   void *dle_new(int32_t n, const uint8_t *counts)
//       n hands of 15 uint8 counts (ranks 3..2, low and high joker), copied
//       into DLE hands; returns the handle (NULL when out of memory).
//   double dle_pass(void *h, const int8_t *rank, const int8_t *num, int64_t *moves)
//       one timed pass over the n hands: every lead (rank == NULL), or
//       hand i's answers to the single-rank move of num[i] cards of
//       rank[i] (a single, pair or trio); returns the seconds and writes the
//       number of moves generated to *moves.
//   void dle_delete(void *h)
#include <chrono>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "doudizhu_game.h"
#include "doudizhu_hand.h"
#include "doudizhu_move.h"

namespace doudizhu_learning_env {
void SearchForAllMoves(const DoudizhuHand &, const DoudizhuMove &, std::vector<DoudizhuMove> &,
                       const std::shared_ptr<DoudizhuGame> &);
void SearchForSingleRankMoves(const DoudizhuHand &, const DoudizhuMove &, std::vector<DoudizhuMove> &);
}  // namespace doudizhu_learning_env

using namespace doudizhu_learning_env;

namespace {
struct Bench {
  std::shared_ptr<DoudizhuGame> game;
  std::vector<DoudizhuHand> hands;
  std::vector<DoudizhuMove> moves;
};
}  // namespace

extern "C" {

void *dle_new(int32_t n, const uint8_t *counts) {
  try {
    auto *b = new Bench;
    b->game = std::make_shared<DoudizhuGame>(GameParameters{});
    b->hands.resize(n);
    for (int32_t i = 0; i < n; ++i)
      for (int r = 0; r < 15; ++r)
        for (int c = 0; c < counts[15 * i + r]; ++c) b->hands[i].AddCard(r);
    b->moves.reserve(4096);
    return b;
  } catch (const std::bad_alloc &) {
    return nullptr;
  }
}

double dle_pass(void *h, const int8_t *rank, const int8_t *num, int64_t *moves) {
  auto *b = static_cast<Bench *>(h);
  auto &out = b->moves;
  const auto n = b->hands.size();
  int64_t total = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < n; ++i) {
    out.clear();
    const auto &hand = b->hands[i];
    const auto &cpr = hand.CardsPerRank();
    if (rank) out.emplace_back(DoudizhuMove::PlayType::kPass);
    if (cpr[kBlackJoker] == 1 && cpr[kRedJoker] == 1) out.emplace_back(DoudizhuMove::PlayType::kRocket);
    if (rank)
      SearchForSingleRankMoves(hand, DoudizhuMove(SingleRank{rank[i], num[i]}), out);
    else
      SearchForAllMoves(hand, DoudizhuMove{}, out, b->game);
    total += static_cast<int64_t>(out.size());
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  *moves = total;
  return s;
}

void dle_delete(void *h) { delete static_cast<Bench *>(h); }

}  // extern "C"
