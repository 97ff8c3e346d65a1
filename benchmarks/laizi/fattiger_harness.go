// A driver for the laizi (wild-card) Dou Dizhu functions of
// github.com/fattigerlee/poker (package ddz), used by benchmarks/laizi_compare.py.
// It only calls that package's exported API; it is built against a local
// checkout of it (go.mod replace directive written by laizi_compare.py).
//
// Input (stdin): a header line "hint ROUNDS" or "classify ROUNDS", then one
// query per line, with our rank order 3 4 5 6 7 8 9 T J Q K A 2 B R for the
// 15 counts and the engine's own numbers for ranks (3..15 = 3..2, 16/17 jokers):
//
//	hint:     WILD c0..c14 TYPE MIN MAX   (the hand, and the move to beat as the
//	                                       engine's CardTypeInfo)
//	classify: WILD c0..c14                (every sub-multiset of these cards is
//	                                       classified)
//
// Output (stdout): first "TYPES v0 v1 ...", the values of the engine's card
// types in the order of typeOrder, then
//
//	hint:     one line per query: TYPE MIN MAX k0..k14 (the engine's answer and
//	          the counts of the cards it plays; TYPE 0 = it found nothing,
//	          -1 = it crashed (a Go panic, recovered here))
//	classify: one line per sub-multiset with at least one reading:
//	          QUERY s0..s14 N (TYPE MIN MAX)*N (one reading of TYPE -1: it crashed)
//	then "TIME NS CALLS": the sum over queries (hint: over the whole list) of
//	the best of ROUNDS timings of the engine's calls alone.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fattigerlee/poker/ddz"
)

var suits = []ddz.SuitType{ddz.SuitTypeHeart, ddz.SuitTypeSpade, ddz.SuitTypeDiamond, ddz.SuitTypeClub}

// typeOrder lists the engine's card types in the order of laizi_compare.py's
// THEIR_TYPES; their values are printed first, so that the script can check
// that the two tables agree.
var typeOrder = []ddz.CardType{
	ddz.CardTypeNone, ddz.CardTypeDan, ddz.CardTypeDui, ddz.CardTypeSanBuDai,
	ddz.CardTypeSanDaiYi, ddz.CardTypeSanDaiEr, ddz.CardTypeSiDaiDan, ddz.CardTypeSiDaiDui,
	ddz.CardTypeShunZi, ddz.CardTypeLianDui, ddz.CardTypeFeiJiBuDai, ddz.CardTypeFeiJiDaiYi,
	ddz.CardTypeFeiJiDaiEr, ddz.CardTypeRuanZhaDan4, ddz.CardTypeZhaDan,
	ddz.CardTypeLaiZiZhaDan4, ddz.CardTypeChunLaiZiZhaDan, ddz.CardTypeRuanZhaDan5,
	ddz.CardTypeLaiZiZhaDan5, ddz.CardTypeRuanZhaDan6, ddz.CardTypeLaiZiZhaDan6,
	ddz.CardTypeRuanZhaDan7, ddz.CardTypeLaiZiZhaDan7, ddz.CardTypeRuanZhaDan8,
	ddz.CardTypeLaiZiZhaDan8, ddz.CardTypeRuanZhaDan9, ddz.CardTypeRuanZhaDan10,
	ddz.CardTypeRuanZhaDan11, ddz.CardTypeRuanZhaDan12, ddz.CardTypeHuoJian,
	ddz.CardTypeRuanLianZha, ddz.CardTypeLianZha,
}

// rankNum maps our rank index (0..14) to the engine's card number.
func rankNum(r int) ddz.NumType {
	if r == 13 {
		return ddz.NumTypeSmallJoker
	}
	if r == 14 {
		return ddz.NumTypeBigJoker
	}
	return ddz.NumType(r + 3)
}

// numRank is the inverse of rankNum.
func numRank(n ddz.NumType) int {
	switch n {
	case ddz.NumTypeSmallJoker:
		return 13
	case ddz.NumTypeBigJoker:
		return 14
	}
	return int(n) - 3
}

// deck holds one Card per physical card of a hand, rank by rank.
func deck(counts []int) [][]*ddz.Card {
	out := make([][]*ddz.Card, 15)
	for r := 0; r < 15; r++ {
		for i := 0; i < counts[r]; i++ {
			suit := suits[i%4]
			if r >= 13 {
				suit = ddz.SuitTypeJoker
			}
			out[r] = append(out[r], ddz.NewCard(suit, rankNum(r)))
		}
	}
	return out
}

func cardsOf(d [][]*ddz.Card, counts []int) []*ddz.Card {
	var cards []*ddz.Card
	for r := 0; r < 15; r++ {
		cards = append(cards, d[r][:counts[r]]...)
	}
	return cards
}

func countsOf(cards []*ddz.Card) []int {
	c := make([]int, 15)
	for _, card := range cards {
		c[numRank(card.Num)]++
	}
	return c
}

func ints(fields []string) []int {
	out := make([]int, len(fields))
	for i, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad number:", f)
			os.Exit(2)
		}
		out[i] = v
	}
	return out
}

func join(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

// getCardType and findCards call the engine, turning a panic (the engine
// crashes on some inputs) into ok == false.
func getCardType(cards []*ddz.Card, wild ddz.NumType) (list []*ddz.CardTypeInfo, ok bool) {
	defer func() {
		if recover() != nil {
			list, ok = nil, false
		}
	}()
	return ddz.GetCardType(cards, wild), true
}

func findCards(last ddz.CardTypeInfo, cards []*ddz.Card, wild ddz.NumType) (ret []*ddz.Card, info ddz.CardTypeInfo, ok bool) {
	defer func() {
		if recover() != nil {
			ret, info, ok = nil, ddz.CardTypeInfo{}, false
		}
	}()
	ret, info = ddz.FindCardsTianDiLaiZi(&last, cards, wild)
	return ret, info, true
}

type hintQuery struct {
	wild  ddz.NumType
	cards []*ddz.Card
	last  ddz.CardTypeInfo
}

func runHint(queries []hintQuery, rounds int, w *bufio.Writer) {
	for _, q := range queries {
		cards, info, ok := findCards(q.last, q.cards, q.wild)
		if !ok {
			info.CardType = -1 // the engine crashed
		}
		if info.CardType <= ddz.CardTypeNone {
			cards = nil
		}
		fmt.Fprintf(w, "%d %d %d %s\n", int(info.CardType), info.MinValue, info.MaxValue, join(countsOf(cards)))
	}
	best := time.Duration(1 << 62)
	for r := 0; r < rounds; r++ {
		t0 := time.Now()
		for i := range queries {
			findCards(queries[i].last, queries[i].cards, queries[i].wild)
		}
		if dt := time.Since(t0); dt < best {
			best = dt
		}
	}
	fmt.Fprintf(w, "TIME %d %d\n", best.Nanoseconds(), len(queries))
}

func runClassify(sc *bufio.Scanner, rounds int, w *bufio.Writer) {
	var totalNs int64
	var calls int
	query := 0
	for sc.Scan() {
		f := ints(strings.Fields(sc.Text()))
		wild, counts := ddz.NumType(f[0]), f[1:16]
		d := deck(counts)
		// Every sub-multiset, in mixed radix over (counts[r] + 1).
		var subsets [][]*ddz.Card
		var subCounts [][]int
		s := make([]int, 15)
		for {
			r := 0
			for r < 15 && s[r] == counts[r] {
				s[r] = 0
				r++
			}
			if r == 15 {
				break
			}
			s[r]++
			subsets = append(subsets, cardsOf(d, s))
			subCounts = append(subCounts, append([]int(nil), s...))
		}
		for i, cards := range subsets {
			list, ok := getCardType(cards, wild)
			if !ok {
				// the engine crashed: one reading of type -1
				list = []*ddz.CardTypeInfo{{CardType: -1}}
			}
			if len(list) == 0 {
				continue
			}
			fmt.Fprintf(w, "%d %s %d", query, join(subCounts[i]), len(list))
			for _, info := range list {
				fmt.Fprintf(w, " %d %d %d", int(info.CardType), info.MinValue, info.MaxValue)
			}
			fmt.Fprintln(w)
		}
		best := time.Duration(1 << 62)
		for r := 0; r < rounds; r++ {
			t0 := time.Now()
			for _, cards := range subsets {
				getCardType(cards, wild)
			}
			if dt := time.Since(t0); dt < best {
				best = dt
			}
		}
		totalNs += best.Nanoseconds()
		calls += len(subsets)
		query++
	}
	fmt.Fprintf(w, "TIME %d %d\n", totalNs, calls)
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer w.Flush()
	if !sc.Scan() {
		return
	}
	header := strings.Fields(sc.Text())
	types := make([]int, len(typeOrder))
	for i, t := range typeOrder {
		types[i] = int(t)
	}
	fmt.Fprintf(w, "TYPES %s\n", join(types))
	rounds, _ := strconv.Atoi(header[1])
	switch header[0] {
	case "hint":
		var queries []hintQuery
		for sc.Scan() {
			f := ints(strings.Fields(sc.Text()))
			counts := f[1:16]
			queries = append(queries, hintQuery{
				wild:  ddz.NumType(f[0]),
				cards: cardsOf(deck(counts), counts),
				last:  ddz.CardTypeInfo{CardType: ddz.CardType(f[16]), MinValue: f[17], MaxValue: f[18]},
			})
		}
		runHint(queries, rounds, w)
	case "classify":
		runClassify(sc, rounds, w)
	default:
		fmt.Fprintln(os.Stderr, "unknown mode:", header[0])
		os.Exit(2)
	}
}
