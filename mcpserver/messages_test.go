package mcpserver

import (
	"bytes"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestBatchInFlight checks that a batch reusing the id of a batch the
// SDK has not answered yet is refused, and taken once the SDK answers.
func TestBatchInFlight(t *testing.T) {
	f := &lineFilter{out: &lockedWriter{w: new(bytes.Buffer)}, max: MaxLineLength}
	batch := []byte(`[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":"s","method":"ping"}]`)
	if a, _ := f.check(batch); a != nil {
		t.Fatalf("check(%s) = %s, want it passed on", batch, a)
	}
	again := []byte(`[{"jsonrpc":"2.0","id":"s","method":"ping"}]`)
	if a, _ := f.check(again); !strings.Contains(string(a), `"id":"s"`) || !strings.Contains(string(a), "not yet answered") {
		t.Errorf("check(%s) with id \"s\" unanswered = %s, want an error for \"s\"", again, a)
	}
	// A single message may reuse it: the SDK takes it.
	single := []byte(`{"jsonrpc":"2.0","id":"s","method":"ping"}`)
	if a, _ := f.check(single); a != nil {
		t.Errorf("check(%s) = %s, want it passed on", single, a)
	}
	f.out.Write([]byte(`[{"jsonrpc":"2.0","id":5,"result":{}},{"jsonrpc":"2.0","id":"s","result":{}}]` + "\n"))
	if a, _ := f.check(again); a != nil {
		t.Errorf("check(%s) once answered = %s, want it passed on", again, a)
	}
	if id, _ := jsonrpc.MakeID(float64(5)); f.out.inBatch(id) {
		t.Errorf("id 5 is still in a batch after its answer")
	}
}

// TestBatchNotifications checks that the notifications of a batch are
// passed on one by one, before the rest of the batch.
func TestBatchNotifications(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"b"}]`,
			`{"jsonrpc":"2.0","method":"a"}` + "\n" + `{"jsonrpc":"2.0","method":"b"}` + "\n" + `[{"jsonrpc":"2.0","id":1,"method":"ping"}]` + "\n"},
		{`[{"jsonrpc":"2.0","method":"a"}, {"jsonrpc":"2.0","method":"b"}]`,
			`{"jsonrpc":"2.0","method":"a"}` + "\n" + `{"jsonrpc":"2.0","method":"b"}` + "\n"},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}, {"jsonrpc":"2.0","id":7,"result":{}}]`,
			`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":7,"result":{}}]` + "\n"},
	} {
		f := &lineFilter{out: &lockedWriter{w: new(bytes.Buffer)}, max: MaxLineLength}
		if a, pass := f.check([]byte(tc.in)); a != nil || string(pass) != tc.want {
			t.Errorf("check(%s) = %s, %q; want it passed on as %q", tc.in, a, pass, tc.want)
		}
	}
}

// TestBatchesAfterInitialize checks which initialize requests end the
// session's batches.
func TestBatchesAfterInitialize(t *testing.T) {
	for _, tc := range []struct {
		version string
		batches bool
	}{
		{"2024-11-05", true},
		{"2025-03-26", true},
		{"2025-06-18", false},
		{"2025-11-25", false},
		{"2026-07-28", false},
		{"1999-01-01", false}, // unknown: the server answers with its own
		{"", false},
	} {
		f := &lineFilter{out: &lockedWriter{w: new(bytes.Buffer)}, max: MaxLineLength}
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + tc.version + `"}}`
		if a, _ := f.check([]byte(init)); a != nil {
			t.Fatalf("check(%s) = %s", init, a)
		}
		a, _ := f.check([]byte(`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`))
		if got := a == nil; got != tc.batches {
			t.Errorf("after initialize %q, a batch passed = %v (answer %s), want %v", tc.version, got, a, tc.batches)
		}
	}
}

func TestScanPrefix(t *testing.T) {
	for _, tc := range []struct {
		prefix string
		isJSON bool
		id     string
	}{
		{`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":"AAA`, true, "9"},
		{`{"id":"abc","params":[1,2,{"id":3}`, true, `"abc"`},
		{`{"params":{"id":3},"x":"AAA`, true, ""},
		{`{"id":12`, true, ""}, // the number may go on
		{`{"id":1.5,"x":"AA`, true, ""},
		{`{"id":{"a":1},"x":"AA`, true, ""},
		{`[{"id":4,"x":"AA`, true, ""},
		{`{"x":"AA`, true, ""},
		{`   `, true, ""},
		{`xxxx`, false, ""},
		{`{"id":4}}`, false, ""},
		{`{"id" 4`, false, ""},
	} {
		isJSON, id := scanPrefix([]byte(tc.prefix))
		if isJSON != tc.isJSON || string(id) != tc.id {
			t.Errorf("scanPrefix(%q) = %v, %q, want %v, %q", tc.prefix, isJSON, id, tc.isJSON, tc.id)
		}
	}
}

func TestNesting(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{`1`, 0},
		{`[]`, 1},
		{`[{"a":[1]},{}]`, 3},
		{`["[[[", "\"[[", {"]]]":[]}]`, 3},
	} {
		if got := nesting([]byte(tc.in)); got != tc.want {
			t.Errorf("nesting(%s) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
