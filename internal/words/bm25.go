package words

import "math"

// BM25's parameters, the usual ones.
const (
	BM25K1 = 1.2
	BM25B  = 0.75
)

// IDF returns BM25's weight of a word that df of n documents hold.
func IDF(n, df float64) float64 { return math.Log(1 + (n-df+0.5)/(df+0.5)) }

// BM25 returns BM25's score of a word of weight idf (IDF) that a
// document of length l holds tf times, where documents are avg long.
func BM25(idf, tf, l, avg float64) float64 {
	return idf * tf * (BM25K1 + 1) / (tf + BM25K1*(1-BM25B+BM25B*l/avg))
}
