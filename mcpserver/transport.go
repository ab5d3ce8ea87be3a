package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewStdioTransport returns a transport of newline-delimited JSON-RPC
// messages read from r and written to w, as MCP's stdio transport has
// them, that survives bad input: a line that is not JSON is answered
// with a JSON-RPC parse error (code -32700), and one that is JSON but
// not a JSON-RPC message with an invalid-request error (-32600); the
// server reads on. Closing the connection does not close w.
func NewStdioTransport(r io.Reader, w io.Writer) mcp.Transport {
	out := &lockedWriter{w: w}
	return &mcp.IOTransport{
		Reader: io.NopCloser(&lineFilter{r: bufio.NewReader(r), out: out}),
		Writer: out,
	}
}

// lockedWriter writes one message at a time: the SDK's and the filter's
// errors.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// lineFilter passes on the lines of r that are JSON-RPC messages, and
// answers the others on out.
type lineFilter struct {
	r       *bufio.Reader
	out     io.Writer
	pending []byte // the rest of the line being passed on
}

// JSON-RPC error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		line, err := f.r.ReadBytes('\n')
		if msg := bytes.TrimSpace(line); len(msg) > 0 {
			if code, text := check(msg); code != 0 {
				if werr := f.answer(msg, code, text); werr != nil {
					return 0, werr
				}
			} else {
				f.pending = append(msg, '\n')
			}
		}
		if err != nil {
			if len(f.pending) > 0 {
				break // the error comes with the next Read
			}
			return 0, err
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// check returns the error code and message for a line that is not a
// JSON-RPC message or a batch of them, or 0.
func check(msg []byte) (int, string) {
	if !json.Valid(msg) {
		return codeParseError, "Parse error: the line is not JSON"
	}
	switch msg[0] {
	case '[':
		return 0, "" // a batch: the SDK checks its messages
	case '{':
		if _, err := jsonrpc.DecodeMessage(msg); err != nil {
			return codeInvalidRequest, "Invalid Request: " + err.Error()
		}
		return 0, ""
	}
	return codeInvalidRequest, "Invalid Request: not a JSON-RPC object"
}

// answer writes the error response to the bad message msg: with its id
// if it has one, else a null id.
func (f *lineFilter) answer(msg []byte, code int, text string) error {
	var withID struct {
		ID json.RawMessage `json:"id"`
	}
	id := json.RawMessage("null")
	if code != codeParseError && json.Unmarshal(msg, &withID) == nil && len(withID.ID) > 0 {
		if c := withID.ID[0]; c == '"' || c == '-' || (c >= '0' && c <= '9') {
			id = withID.ID
		}
	}
	resp, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, text}})
	if err != nil {
		return err
	}
	_, err = f.out.Write(append(resp, '\n'))
	return err
}
