// Times the move generator of zizhang-qiu/doudizhu_learning_environment (DLE)
// called from C++, on hands read from a file, the way its
// DoudizhuState::LegalMoves runs it in the play phase (PASS for a response,
// the rocket, then the search for the rival's play type).  Built and run by
// benchmarks/compare.py (kernel rows) when DDZ_DLE_DIR points at a DLE
// source tree; our own code, linking DLE's doudizhu_lib.
//
// Input file: int32 n, then n hands of 15 uint8 counts (ranks 3..2, low and
// high joker), then n int8 ranks of a single card to answer (-1: a lead).
// Output: "<lead ns/hand> <lead moves> <response ns/hand> <response moves>".
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <memory>
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

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  FILE *f = std::fopen(argv[1], "rb");
  if (!f) return 2;
  int32_t n = 0;
  if (std::fread(&n, 4, 1, f) != 1) return 2;
  std::vector<uint8_t> counts(15 * (size_t)n);
  std::vector<int8_t> solo(n);
  if (std::fread(counts.data(), 1, counts.size(), f) != counts.size()) return 2;
  if (std::fread(solo.data(), 1, solo.size(), f) != solo.size()) return 2;
  std::fclose(f);
  int repeat = std::atoi(argv[2]);
  auto game = std::make_shared<DoudizhuGame>(GameParameters{});
  std::vector<DoudizhuHand> hands(n);
  for (int i = 0; i < n; ++i)
    for (int r = 0; r < 15; ++r)
      for (int c = 0; c < counts[15 * i + r]; ++c) hands[i].AddCard(r);
  std::vector<DoudizhuMove> moves;
  moves.reserve(4096);
  double best[2] = {1e300, 1e300};
  long total[2] = {0, 0};
  for (int rep = 0; rep < repeat; ++rep) {
    for (int resp = 0; resp < 2; ++resp) {
      long t_moves = 0;
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < n; ++i) {
        moves.clear();
        const auto &cpr = hands[i].CardsPerRank();
        if (resp) {
          moves.emplace_back(DoudizhuMove::PlayType::kPass);
          if (cpr[kBlackJoker] == 1 && cpr[kRedJoker] == 1) moves.emplace_back(DoudizhuMove::PlayType::kRocket);
          SearchForSingleRankMoves(hands[i], DoudizhuMove(SingleRank{solo[i], 1}), moves);
        } else {
          if (cpr[kBlackJoker] == 1 && cpr[kRedJoker] == 1) moves.emplace_back(DoudizhuMove::PlayType::kRocket);
          SearchForAllMoves(hands[i], DoudizhuMove{}, moves, game);
        }
        t_moves += (long)moves.size();
      }
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (s < best[resp]) best[resp] = s;
      total[resp] = t_moves;
    }
  }
  std::printf("%.3f %ld %.3f %ld\n", best[0] / n * 1e9, total[0], best[1] / n * 1e9, total[1]);
  return 0;
}
