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

// MaxLineLength is the longest line, in bytes without its newline, that
// the transport of [NewStdioTransport] passes on: the SDK's own limit.
const MaxLineLength = mcp.DefaultMaxLineLength

// NewStdioTransport returns a transport of newline-delimited JSON-RPC
// messages read from r and written to w, as MCP's stdio transport has
// them, that survives bad input: every line that is not a message the
// SDK takes is answered with a JSON-RPC error, and the server reads on.
//
//   - A line that is not JSON gets a parse error (code -32700).
//   - JSON that is not a JSON-RPC 2.0 message gets an invalid-request
//     error (-32600), with the message's id when it has a valid one. So
//     does a message whose id is not a string or an integer that a
//     float64 holds exactly (the SDK would answer 1.5 as 1), or is null
//     in a request (MCP forbids it).
//   - A batch (a JSON array) gets a single -32600 when empty; else, when
//     it cannot be run whole (the protocol version negotiated has no
//     batches, as from 2025-06-18 on; one of its messages is bad; an id
//     is used twice or by a batch still unanswered), an array of -32600
//     errors: one per bad message and one per request it holds.
//   - A line longer than [MaxLineLength] is read to its end without being
//     kept, and answered with -32600 (with the id, if the start of the
//     line holds it), or -32700 if its start is not JSON.
//
// The memory a line takes is bounded by MaxLineLength, however long it
// is. Closing the connection does not close w.
func NewStdioTransport(r io.Reader, w io.Writer) mcp.Transport {
	out := &lockedWriter{w: w}
	return &mcp.IOTransport{
		Reader: io.NopCloser(&lineFilter{r: bufio.NewReader(r), out: out, max: MaxLineLength}),
		Writer: out,
		// The filter bounds the lines; the SDK's own limit would end the
		// session on a line over it.
		MaxLineLength: -1,
	}
}

// lockedWriter writes one message at a time, the SDK's and the filter's,
// and keeps the ids of the requests of batches passed to the SDK until
// the SDK writes their answers.
type lockedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	batched map[jsonrpc.ID]bool // requests of batches not yet answered
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.batched) > 0 && len(p) > 0 && p[0] == '[' {
		// The SDK answers a batch in one array once all its requests
		// are answered.
		var answers []json.RawMessage
		if json.Unmarshal(p, &answers) == nil {
			for _, a := range answers {
				if msg, err := jsonrpc.DecodeMessage(a); err == nil {
					if resp, ok := msg.(*jsonrpc.Response); ok {
						delete(l.batched, resp.ID)
					}
				}
			}
		}
	}
	return l.w.Write(p)
}

// inBatch reports whether id is a request of a batch not yet answered.
func (l *lockedWriter) inBatch(id jsonrpc.ID) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.batched[id]
}

// addBatch records the ids of the requests of a batch passed on.
func (l *lockedWriter) addBatch(ids []jsonrpc.ID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.batched == nil {
		l.batched = make(map[jsonrpc.ID]bool)
	}
	for _, id := range ids {
		l.batched[id] = true
	}
}

func (l *lockedWriter) Close() error { return nil }

// lineFilter passes on the lines of r that are JSON-RPC messages the SDK
// takes, and answers the others on out.
type lineFilter struct {
	r   *bufio.Reader
	out *lockedWriter
	max int // the longest line passed on

	buf     []byte // the line being read
	pending []byte // the rest of what is being passed on
	err     error  // the error that ended the input, once pending is sent

	// noBatches is the protocol version from which on the session has no
	// batches, once an initialize request asked for such a version.
	noBatches string
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		var line []byte
		var long bool
		line, long, f.err = f.readLine()
		msg := bytes.TrimSpace(line)
		var answer []byte
		switch {
		case long:
			answer = tooLong(msg)
		case len(msg) == 0:
			continue
		default:
			answer, f.pending = f.check(msg)
		}
		if answer != nil {
			if _, err := f.out.Write(answer); err != nil {
				return 0, err
			}
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// readLine returns the next line of r without its newline, and whether
// it is longer than max bytes; then the line holds its first max bytes,
// and the rest is read and dropped.
func (f *lineFilter) readLine() (line []byte, long bool, err error) {
	if cap(f.buf) > 1<<20 {
		f.buf = nil // let a long line's memory go
	}
	f.buf = f.buf[:0]
	for {
		chunk, err := f.r.ReadSlice('\n')
		if err == nil {
			chunk = chunk[:len(chunk)-1]
		}
		if !long {
			if room := f.max - len(f.buf); len(chunk) > room {
				f.buf = append(f.buf, chunk[:room]...)
				long = true
			} else {
				f.buf = append(f.buf, chunk...)
			}
		}
		if err != bufio.ErrBufferFull {
			return f.buf, long, err
		}
	}
}
