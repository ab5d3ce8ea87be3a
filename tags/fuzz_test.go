package tags

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// FuzzParse parses any bytes as one tier-1 language, picked by lang
// (modulo the number of such languages), and checks what every map relies
// on: no panic, every tag on a row of the source, tags sorted by row, names
// that are one line, the same tags from a second parse, and an outline
// whose context rows, compact rows and doc comments lie in the source and
// whose rows survive its binary form. The
// seeds are the fixtures of testdata/lang, each with its language, and
// the hostile inputs of testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for i, l := range grammarLanguages {
		files, _ := filepath.Glob(filepath.Join("testdata/lang", l.name, "*"))
		for _, file := range files {
			if strings.HasSuffix(file, ".tags") {
				continue
			}
			if src, err := os.ReadFile(file); err == nil {
				f.Add(uint8(i), src)
			}
		}
	}
	// One parser for every input: compiling the queries is what costs.
	// The fuzzing engine calls the function from one goroutine at a time
	// per process; the mutex keeps that true whatever runs it.
	var mu sync.Mutex
	p := NewParser(&ParserOptions{Timeout: 2 * time.Second})
	defer p.Close()
	f.Fuzz(func(t *testing.T, lang uint8, src []byte) {
		mu.Lock()
		defer mu.Unlock()
		l := grammarLanguages[int(lang)%len(grammarLanguages)]
		path := "fuzz" + l.exts[0]
		ctx := context.Background()
		got, err := p.Parse(ctx, path, src)
		if errors.Is(err, ErrTimeout) {
			return // a bounded failure is the property
		}
		if err != nil {
			t.Fatalf("Parse(%s) error: %v", path, err)
		}
		rows := bytes.Count(src, []byte("\n")) + 1
		for _, tg := range got {
			if tg.Line < 0 || tg.Line >= rows {
				t.Fatalf("Parse(%s): tag %+v on row %d, outside the source's %d rows", path, tg, tg.Line, rows)
			}
			if tg.Path != path || tg.Name == "" || strings.ContainsAny(tg.Name, "\r\n") || (tg.Kind != Definition && tg.Kind != Reference) {
				t.Fatalf("Parse(%s): bad tag %+v", path, tg)
			}
		}
		if !slices.IsSortedFunc(got, func(a, b Tag) int { return a.Line - b.Line }) {
			t.Fatalf("Parse(%s): tags not sorted by row: %v", path, short(got))
		}
		again, err := p.Parse(ctx, path, src)
		if errors.Is(err, ErrTimeout) {
			return
		}
		if err != nil {
			t.Fatalf("Parse(%s) again: error %v", path, err)
		}
		if diff := cmp.Diff(got, again); diff != "" {
			t.Fatalf("Parse(%s) twice differs (-first +second):\n%s", path, diff)
		}

		o, err := p.Outline(ctx, path, src)
		if errors.Is(err, ErrTimeout) {
			return
		}
		if err != nil {
			t.Fatalf("Outline(%s) error: %v", path, err)
		}
		lois := make([]int, 0, len(got)+2)
		for _, tg := range got {
			lois = append(lois, tg.Line)
		}
		lois = append(lois, 0, rows-1)
		ctxRows := o.Context(lois)
		if !slices.IsSorted(ctxRows) || len(slices.Compact(slices.Clone(ctxRows))) != len(ctxRows) {
			t.Fatalf("Outline(%s).Context = %v, want sorted rows without duplicates", path, ctxRows)
		}
		for _, r := range ctxRows {
			if r < 0 || r >= rows {
				t.Fatalf("Outline(%s).Context(%v) has row %d, outside the source's %d rows", path, lois, r, rows)
			}
		}
		compact := o.Compact(lois)
		if !slices.IsSorted(compact) || len(slices.Compact(slices.Clone(compact))) != len(compact) {
			t.Fatalf("Outline(%s).Compact = %v, want sorted rows without duplicates", path, compact)
		}
		for _, r := range compact {
			if r < 0 || r >= rows {
				t.Fatalf("Outline(%s).Compact(%v) has row %d, outside the source's %d rows", path, lois, r, rows)
			}
		}
		for _, d := range o.Docs(lois) {
			if d[0] < 0 || d[0] > d[1] || d[1] >= rows {
				t.Fatalf("Outline(%s).Docs(%v) has rows %v, outside the source's %d rows", path, lois, d, rows)
			}
		}
		b, err := o.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		var back Outline
		if err := back.UnmarshalBinary(b); err != nil {
			t.Fatalf("Outline(%s): its binary form does not decode: %v", path, err)
		}
		if diff := cmp.Diff(ctxRows, back.Context(lois)); diff != "" {
			t.Fatalf("Outline(%s): decoded outline gives another context (-want +got):\n%s", path, diff)
		}
		if diff := cmp.Diff(compact, back.Compact(lois)); diff != "" {
			t.Fatalf("Outline(%s): decoded outline gives other compact rows (-want +got):\n%s", path, diff)
		}
	})
}
