package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/repomap-dev/repomap/mcpserver"
	"github.com/repomap-dev/repomap/repomap"
)

// stdio is a server on the stdio transport, spoken to line by line.
type stdio struct {
	t       *testing.T
	in      *io.PipeWriter
	answers chan []byte
	ended   chan struct{} // closed when the server has ended, with err
	err     error
}

// startStdio serves a Map of tree over [mcpserver.NewStdioTransport] and
// initializes the session under the given protocol version.
func startStdio(t *testing.T, version string) *stdio {
	t.Helper()
	m, err := repomap.NewFS(tree(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	s := &stdio{t: t, in: inW, answers: make(chan []byte, 16), ended: make(chan struct{})}
	go func() {
		s.err = mcpserver.New(m, nil).Run(ctx, mcpserver.NewStdioTransport(inR, outW))
		inR.Close() // what is sent after fails
		outW.Close()
		close(s.ended)
	}()
	go func() {
		defer close(s.answers)
		out := bufio.NewReader(outR)
		for {
			line, err := out.ReadBytes('\n')
			if err != nil {
				return
			}
			s.answers <- line
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		<-s.ended
		outR.Close()
	})
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`, version))
	if a := s.recv(); shape(a) != "result 1" {
		t.Fatalf("initialize = %s", a)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *stdio) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		<-s.ended
		s.t.Fatalf("the server no longer reads: %v (it ended with %v)", err, s.err)
	}
}

// recv returns the next line the server writes, or nil if it writes
// none within ten seconds or has ended.
func (s *stdio) recv() []byte {
	select {
	case a := <-s.answers:
		return a
	case <-time.After(10 * time.Second):
		return nil
	}
}

// shape describes a JSON-RPC answer by what tells answers apart: "result
// ID", "CODE ID" for an error, "[…]" around the sorted shapes of a
// batch's.
func shape(line []byte) string {
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		var shapes []string
		for _, a := range batch {
			shapes = append(shapes, shape(a))
		}
		slices.Sort(shapes)
		return "[" + strings.Join(shapes, ", ") + "]"
	}
	var a struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(line, &a); err != nil {
		return fmt.Sprintf("not JSON (%q)", line)
	}
	id := string(a.ID)
	if id == "" {
		id = "no id"
	}
	switch {
	case a.Error != nil:
		return fmt.Sprintf("%d %s", a.Error.Code, id)
	case a.Result != nil:
		return "result " + id
	}
	return "neither result nor error " + id
}

// TestBadLines sends a server one line of each kind a client can get
// wrong, each to a server of its own, then a ping: each line gets the
// answer it should, and the server answers the ping after it.
func TestBadLines(t *testing.T) {
	const (
		v0618 = "2025-06-18" // no batches
		v0326 = "2025-03-26" // batches
	)
	// padded returns a ping with id 9 of n bytes.
	padded := func(n int) string {
		head, tail := `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"_meta":{"x":"`, `"}}}`
		return head + strings.Repeat("A", n-len(head)-len(tail)) + tail
	}
	for _, tc := range []struct {
		name    string
		version string // v0618 if empty
		line    string
		want    []string // the shapes of the answers, but for the ping's
		text    string   // in the answer, if set
	}{
		{name: "truncated JSON", line: `{"jsonrpc":"2.0","id":3,"method":"pi`, want: []string{"-32700 null"}},
		{name: "not JSON", line: `this is not json`, want: []string{"-32700 null"}},
		{name: "two values", line: `{} {}`, want: []string{"-32700 null"}},
		{name: "NUL", line: "\x00", want: []string{"-32700 null"}},
		{name: "xff", line: "\xff\xfe", want: []string{"-32700 null"}},
		{name: "raw NUL in a string", line: "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"pi\x00ng\"}", want: []string{"-32700 null"}},
		{name: "xff in a string", line: "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"p\xffing\"}", want: []string{"-32601 3"}},
		{name: "BOM", line: "\xef\xbb\xbf" + `{"jsonrpc":"2.0","id":10,"method":"ping"}`, want: []string{"-32700 null"}},
		{name: "100k-deep nesting", line: strings.Repeat("[", 100000) + strings.Repeat("]", 100000), want: []string{"-32700 null"}},
		{name: "number", line: `42`, want: []string{"-32600 null"}},
		{name: "string", line: `"just a string"`, want: []string{"-32600 null"}},
		{name: "null", line: `null`, want: []string{"-32600 null"}},
		{name: "bool", line: `true`, want: []string{"-32600 null"}},
		{name: "empty object", line: `{}`, want: []string{"-32600 null"}},
		{name: "only an id", line: `{"id":5}`, want: []string{"-32600 5"}},
		{name: "jsonrpc 1.0", line: `{"jsonrpc":"1.0","id":6,"method":"ping"}`, want: []string{"-32600 6"}},
		{name: "method a number", line: `{"jsonrpc":"2.0","id":6,"method":5}`, want: []string{"-32600 6"}},
		{name: "object id", line: `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, want: []string{"-32600 null"}},
		{name: "array id", line: `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, want: []string{"-32600 null"}},
		{name: "bool id", line: `{"jsonrpc":"2.0","id":true,"method":"ping"}`, want: []string{"-32600 null"}},
		{name: "null id", line: `{"jsonrpc":"2.0","id":null,"method":"ping"}`, want: []string{"-32600 null"}},
		{name: "float id", line: `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, want: []string{"-32600 null"}},
		{name: "exponent id", line: `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, want: []string{"-32600 null"}},
		{name: "id past 2^53", line: `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, want: []string{"-32600 null"}},
		{name: "id at 2^53", line: `{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`, want: []string{"result 9007199254740992"}},
		{name: "string id", line: `{"jsonrpc":"2.0","id":"a-1","method":"ping"}`, want: []string{`result "a-1"`}},
		{name: "negative id", line: `{"jsonrpc":"2.0","id":-4,"method":"ping"}`, want: []string{"result -4"}},
		{name: "5000-deep params", line: `{"jsonrpc":"2.0","id":12,"method":"ping","params":{"_meta":` + strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000) + "}}", want: []string{"-32600 12"}},
		{name: "params of the wrong type", line: `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":[1]}`, want: []string{"-32602 7"}},
		{name: "unknown method", line: `{"jsonrpc":"2.0","id":8,"method":"nope"}`, want: []string{"-32601 8"}},
		{name: "resources/list", line: `{"jsonrpc":"2.0","id":16,"method":"resources/list"}`, want: []string{"result 16"}},
		{name: "prompts/get", line: `{"jsonrpc":"2.0","id":17,"method":"prompts/get","params":{"name":"x"}}`, want: []string{"-32602 17"}},
		{name: "completion/complete", line: `{"jsonrpc":"2.0","id":18,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"x"},"argument":{"name":"a","value":"b"}}}`, want: []string{"-32601 18"}},
		{name: "second initialize", line: `{"jsonrpc":"2.0","id":14,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`, want: []string{"0 14"}},
		{name: "id in use before", line: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, want: []string{"result 1"}},
		{name: "stray response", line: `{"jsonrpc":"2.0","id":99,"result":{}}`},
		{name: "stray error", line: `{"jsonrpc":"2.0","id":98,"error":{"code":-1,"message":"x"}}`},
		{name: "unknown notification", line: `{"jsonrpc":"2.0","method":"notifications/whatever"}`},
		{name: "empty line", line: ``},
		{name: "CR", line: `{"jsonrpc":"2.0","id":10,"method":"ping"}` + "\r", want: []string{"result 10"}},
		{name: "empty batch", line: `[]`, want: []string{"-32600 null"}, text: "empty batch"},
		{name: "batch of a number", line: `[1]`, want: []string{"[-32600 null]"}},
		{name: "batch of numbers", line: `[1,2]`, want: []string{"[-32600 null, -32600 null]"}},
		{name: "batch of an empty object", line: `[{}]`, want: []string{"[-32600 null]"}},
		{name: "batch without batches", line: `[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":6,"method":"tools/list"}]`, want: []string{"[-32600 5, -32600 6]"}, text: "not supported"},
		{name: "batch of a notification without batches", line: `[{"jsonrpc":"2.0","method":"notifications/whatever"}]`, want: []string{"-32600 null"}, text: "not supported"},
		{name: "batch", version: v0326, line: `[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":6,"method":"tools/list"}]`, want: []string{"[result 5, result 6]"}},
		{name: "batch with notifications", version: v0326, line: `[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/y"}]`, want: []string{"[result 3]"}},
		{name: "batch of notifications", version: v0326, line: `[{"jsonrpc":"2.0","method":""},{"jsonrpc":"2.0","method":""}]`},
		{name: "empty batch with batches", version: v0326, line: `[]`, want: []string{"-32600 null"}},
		{name: "batch of numbers with batches", version: v0326, line: `[1,2]`, want: []string{"[-32600 null, -32600 null]"}},
		{name: "batch with a bad message", version: v0326, line: `[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"1.0","id":6,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/whatever"}]`, want: []string{"[-32600 5, -32600 6]"}},
		{name: "batch with an id twice", version: v0326, line: `[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":"ping"}]`, want: []string{"[-32600 5, -32600 5]"}, text: "twice"},
		{name: "batch with a float id", version: v0326, line: `[{"jsonrpc":"2.0","id":5.5,"method":"ping"}]`, want: []string{"[-32600 null]"}},
		{name: "batch nested too deep", version: v0326, line: `[{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":` + strings.Repeat(`{"a":`, 998) + "1" + strings.Repeat("}", 998) + "}}]", want: []string{"-32600 null"}},
		{name: "line at the limit", line: padded(mcpserver.MaxLineLength), want: []string{"result 9"}},
		{name: "line over the limit", line: padded(mcpserver.MaxLineLength + 1), want: []string{"-32600 9"}, text: "too long"},
		{name: "long line, id at the end", line: `{"jsonrpc":"2.0","method":"ping","params":{"x":"` + strings.Repeat("A", mcpserver.MaxLineLength) + `"},"id":9}`, want: []string{"-32600 null"}, text: "too long"},
		{name: "long junk line", line: strings.Repeat("x", mcpserver.MaxLineLength+100), want: []string{"-32700 null"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			version := tc.version
			if version == "" {
				version = v0618
			}
			s := startStdio(t, version)
			s.send(tc.line)
			s.send(`{"jsonrpc":"2.0","id":424242,"method":"ping"}`)
			var got []string
			var raw []string
			pinged := false
			for !pinged || len(got) < len(tc.want) {
				a := s.recv()
				if a == nil {
					break
				}
				if shape(a) == "result 424242" {
					pinged = true
					continue
				}
				got = append(got, shape(a))
				raw = append(raw, string(a))
			}
			if !pinged {
				t.Errorf("the ping after the line is not answered")
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("answers %q, want %q; %.300s", got, tc.want, raw)
			}
			if tc.text != "" && (len(raw) == 0 || !strings.Contains(raw[0], tc.text)) {
				t.Errorf("answer %.300q, want one that says %q", raw, tc.text)
			}
		})
	}
}

// FuzzLines checks that the server reads on after any input: a ping
// after it is answered.
func FuzzLines(f *testing.F) {
	for _, seed := range []string{
		`[]`, `[1,2]`, `[{}]`, `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":6,"method":"tools/list"}]`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"repo_map","arguments":{"focus":["main.go"]}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}` + "\n" + `[{"jsonrpc":"2.0","id":4,"method":"ping"}]`,
		"\xef\xbb\xbf{}", "{\"a\":\"\xff\"}\r",
	} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, lines string, batches bool) {
		version := "2025-06-18"
		if batches {
			version = "2025-03-26"
		}
		s := startStdio(t, version)
		s.send(lines)
		s.send(`{"jsonrpc":"2.0","id":"fuzz-ping","method":"ping"}`)
		for {
			a := s.recv()
			if a == nil {
				t.Fatalf("no answer to a ping after %q", lines)
			}
			if shape(a) == `result "fuzz-ping"` {
				return
			}
		}
	})
}
