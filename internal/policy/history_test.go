package policy

import (
	"reflect"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/history"
	"github.com/repomap-dev/repomap/internal/index/indextest"
)

// TestMessageLeads: of the files that lead, the source file that the
// commits whose messages match the request's words changed takes the
// place after the first file's lead, with its first lead, and keeps its
// later ones; a file that does not lead, or a test, is not moved in.
func TestMessageLeads(t *testing.T) {
	tree := fstest.MapFS{}
	for _, p := range []string{"a.py", "b.py", "c.py", "d.py", "tests/test_c.py"} {
		tree[p] = &fstest.MapFile{Data: []byte("def f():\n    pass\n")}
	}
	snap := indextest.Snapshot(t, tree)
	view := func(changed ...string) *history.View {
		h := &history.History{Time: 100, Paths: []string{"a.py", "b.py", "c.py", "d.py", "tests/test_c.py"}}
		ids := map[string]int32{"a.py": 0, "b.py": 1, "c.py": 2, "d.py": 3, "tests/test_c.py": 4}
		var files []int32
		for _, p := range changed {
			files = append(files, ids[p])
		}
		h.Commits = []history.Commit{
			{Time: 100, Message: "Tidy the imports", Files: []int32{0, 1}},
			{Time: 90, Message: "Fix the frobnicator's overflow", Files: files},
			{Time: 80, Message: "Add the parser", Files: []int32{3}},
		}
		return history.NewView(history.Part{History: h})
	}
	c := Default().History
	c.MessageLift, c.MessageCommits, c.MessageAdd = 1, 10, 0
	text := "the frobnicator overflows on large input"
	leads := []Lead{{Path: "a.py", Name: "f"}, {Path: "d.py", Name: "k"}, {Path: "b.py", Name: "g"}, {Path: "a.py", Name: "h"}, {Path: "b.py", Name: "g2"}}

	got := messageLeads(leads, snap, view("b.py"), text, c)
	want := []Lead{{Path: "a.py", Name: "f"}, {Path: "b.py", Name: "g"}, {Path: "d.py", Name: "k"}, {Path: "a.py", Name: "h"}, {Path: "b.py", Name: "g2"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a file that leads:\n got %v\nwant %v", got, want)
	}
	// The first file's own commits, a test's, a file's that does not
	// lead, or words no message has: the leads as they were.
	for _, v := range []*history.View{view("a.py"), view("tests/test_c.py"), view("c.py", "tests/test_c.py")} {
		if got := messageLeads(leads, snap, v, text, c); !reflect.DeepEqual(got, leads) {
			t.Errorf("no code file to move up: %v", got)
		}
	}
	if got := messageLeads(leads, snap, view("c.py"), "unrelated words only", c); !reflect.DeepEqual(got, leads) {
		t.Errorf("no message matches: %v", got)
	}
	// With MessageAdd, the source file that does not lead joins the
	// leads at that place, and one that leads still moves up; at a place
	// past the end, it comes last.
	c.MessageAdd = 2
	got = messageLeads(leads, snap, view("c.py", "tests/test_c.py"), text, c)
	want = []Lead{{Path: "a.py", Name: "f"}, {Path: "d.py", Name: "k"}, {Path: "c.py"}, {Path: "b.py", Name: "g"}, {Path: "a.py", Name: "h"}, {Path: "b.py", Name: "g2"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a file that does not lead, at place 2:\n got %v\nwant %v", got, want)
	}
	got = messageLeads(leads, snap, view("b.py", "c.py"), text, c)
	want = []Lead{{Path: "a.py", Name: "f"}, {Path: "b.py", Name: "g"}, {Path: "c.py"}, {Path: "d.py", Name: "k"}, {Path: "a.py", Name: "h"}, {Path: "b.py", Name: "g2"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("one that leads and one that does not:\n got %v\nwant %v", got, want)
	}
	// Without the lift, the file that leads stays where it is.
	c.MessageLift = 0
	got = messageLeads(leads, snap, view("b.py", "c.py"), text, c)
	want = []Lead{{Path: "a.py", Name: "f"}, {Path: "d.py", Name: "k"}, {Path: "c.py"}, {Path: "b.py", Name: "g"}, {Path: "a.py", Name: "h"}, {Path: "b.py", Name: "g2"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("no lift:\n got %v\nwant %v", got, want)
	}
	c.MessageLift = 1
	c.MessageAdd = 50
	if got := messageLeads(leads, snap, view("c.py"), text, c); !reflect.DeepEqual(got, append(slices.Clone(leads), Lead{Path: "c.py"})) {
		t.Errorf("at a place past the end: %v", got)
	}
}
