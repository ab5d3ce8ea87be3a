package eval

import (
	"math"
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"fetch_page", []string{"fetch", "page"}},
		{"parseHTTPRequest", []string{"parse", "http", "request"}},
		{"HTTPServer.ListenAndServe()", []string{"http", "server", "listen", "and", "serve"}},
		{"django.db.models.query.QuerySet.update", []string{"django", "db", "models", "query", "query", "set", "update"}},
		{`File "x/base64.py", line 12, in b64Decode`, []string{"file", "x", "base64", "py", "line", "12", "in", "b64", "decode"}},
		{"__init__ URL ID2x ÉtéÀ", []string{"init", "url", "id2x", "été", "à"}},
		{"  --  ", nil},
	} {
		var got []string
		eachTerm(tc.in, func(s string) { got = append(got, s) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("terms(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if tc := countTerms("a_b aB x"); tc.len != 5 || tc.tf["a"] != 2 || tc.tf["b"] != 2 || tc.tf["x"] != 1 {
		t.Errorf("countTerms(%q) = %+v, want a:2 b:2 x:1, 5 terms", "a_b aB x", tc)
	}
}

// TestBM25 checks the scores against the formula worked out by hand for
// three documents: a = "x y", b = "x x z", c = "w" (N = 3, avgdl = 2).
func TestBM25(t *testing.T) {
	docs := []termCounts{countTerms("x y"), countTerms("x X_z"), countTerms("w")}
	names := []string{"a", "b", "c"}
	// tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl)), k1 = 1.2, b = 0.75.
	sat := func(tf, dl float64) float64 { return tf * 2.2 / (tf + 1.2*(0.25+0.75*dl/2)) }
	idf := func(df float64) float64 { return math.Log(1 + (3-df+0.5)/(df+0.5)) }
	for _, tc := range []struct {
		query string
		want  []float64
		order []string
	}{
		// x is in a and b (idf ln 1.6), z in b (idf ln 3.0); q in none.
		{"x z q", []float64{idf(2) * sat(1, 2), idf(2)*sat(2, 3) + idf(1)*sat(1, 3), 0}, []string{"b", "a", "c"}},
		// A repeated query term counts once.
		{"Y y", []float64{idf(1) * sat(1, 2), 0, 0}, []string{"a", "b", "c"}},
		// No query term anywhere: every file ties, by name.
		{"nothing", []float64{0, 0, 0}, []string{"a", "b", "c"}},
		{"w", []float64{0, 0, idf(1) * sat(1, 1)}, []string{"c", "a", "b"}},
	} {
		got := bm25Scores(tc.query, docs)
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-12 {
				t.Errorf("bm25Scores(%q) = %v, want %v", tc.query, got, tc.want)
				break
			}
		}
		if order := rankBM25(tc.query, names, docs); !slices.Equal(order, tc.order) {
			t.Errorf("rankBM25(%q) = %v, want %v", tc.query, order, tc.order)
		}
	}
	if got := rankBM25("x", nil, nil); len(got) != 0 {
		t.Errorf("rankBM25 of no document = %v", got)
	}
}
