package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What the filter checks of a line follows from what the SDK (v1.8) does
// with it. Its reader ends the session on a line that is not JSON, on a
// message that jsonrpc.DecodeMessage refuses, on an empty batch or one
// holding such a message or nesting deeper than 1000, on any batch once
// the session's protocol version is 2025-06-18 or later, on a batch
// using an id twice or one of a batch it has not answered yet, and on a
// batch holding two notifications (it files each under the null id). It
// never answers a batch holding a notification, and takes a float id as
// the integer below it. Everything else it answers itself.

// firstWithoutBatches is the first protocol version without JSON-RPC
// batches.
const firstWithoutBatches = "2025-06-18"

// maxExactID is the largest integer id the SDK keeps exactly: it reads
// ids as float64.
const maxExactID = 1 << 53

// maxNesting is the deepest the SDK reads a batch: arrays and objects
// inside each other.
const maxNesting = 1000

// JSON-RPC error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// check returns the answer to a line that the SDK must not be given, or
// the lines to give it in its place; it notes what the line changes.
func (f *lineFilter) check(msg []byte) (answer, pass []byte) {
	if !json.Valid(msg) {
		return errorLine(nil, codeParseError, "Parse error: the line is not JSON"), nil
	}
	switch msg[0] {
	case '{':
		m, id, problem := decode(msg)
		if problem != "" {
			return errorLine(id, codeInvalidRequest, "Invalid Request: "+problem), nil
		}
		f.note(m)
		return nil, append(msg, '\n')
	case '[':
		return f.checkBatch(msg)
	}
	return errorLine(nil, codeInvalidRequest, "Invalid Request: not a JSON-RPC object"), nil
}

// decode decodes one JSON-RPC message as the SDK does, and checks its
// id. It returns the message, its id if that is valid (for an answer),
// and what is wrong with it, if anything.
func decode(raw []byte) (jsonrpc.Message, json.RawMessage, string) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, nil, "not a JSON-RPC object"
	}
	rawID, hasID := fields["id"]
	idProblem := ""
	if hasID {
		idProblem = checkID(rawID)
	}
	var id json.RawMessage
	if hasID && idProblem == "" {
		id = rawID
	}
	m, err := jsonrpc.DecodeMessage(raw)
	switch {
	case err != nil:
		return nil, id, err.Error()
	case idProblem != "":
		return nil, nil, idProblem
	}
	if req, ok := m.(*jsonrpc.Request); ok && hasID && !req.IsCall() {
		return nil, nil, "the id of a request must not be null"
	}
	return m, id, ""
}

// checkID returns what is wrong with the JSON id raw, or "".
func checkID(raw json.RawMessage) string {
	switch raw[0] {
	case '"', 'n': // a string; null is for the caller to judge
		return ""
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n > maxExactID || n < -maxExactID {
			return fmt.Sprintf("the id %s is not an integer of at most 2^53", raw)
		}
		return ""
	}
	return "the id must be a string or an integer"
}

// note records what a message passed on changes for the lines after it:
// an initialize request asking for a protocol version without batches.
func (f *lineFilter) note(m jsonrpc.Message) {
	req, ok := m.(*jsonrpc.Request)
	if !ok || req.Method != "initialize" || f.noBatches != "" {
		return
	}
	var params struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(req.Params, &params)
	// The server takes the version asked for if it knows it, else one of
	// its own from 2025-06-18 on; the SDK refuses batches from the
	// version on, and the filter refuses them from the request on.
	v := params.ProtocolVersion
	if !slices.Contains(mcp.SupportedProtocolVersions(), v) || v >= firstWithoutBatches {
		f.noBatches = firstWithoutBatches
	}
}

// checkBatch returns the answer to a batch that the SDK must not be
// given, or the lines to give it in its place: the notifications of the
// batch one by one, then the rest as a batch. (The SDK waits for an
// answer to each notification of a batch before it answers the batch,
// and ends the session on a second notification.)
func (f *lineFilter) checkBatch(msg []byte) (answer, pass []byte) {
	var raws []json.RawMessage
	if err := json.Unmarshal(msg, &raws); err != nil {
		return errorLine(nil, codeInvalidRequest, "Invalid Request: "+err.Error()), nil
	}
	if len(raws) == 0 {
		return errorLine(nil, codeInvalidRequest, "Invalid Request: empty batch"), nil
	}
	if nesting(msg) > maxNesting {
		return errorLine(nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: the batch nests deeper than %d", maxNesting)), nil
	}
	type item struct {
		msg     jsonrpc.Message
		id      json.RawMessage
		problem string
	}
	items := make([]item, len(raws))
	seen := make(map[jsonrpc.ID]bool)
	var calls []jsonrpc.ID
	bad := false
	for i, raw := range raws {
		it := &items[i]
		it.msg, it.id, it.problem = decode(raw)
		if req, ok := it.msg.(*jsonrpc.Request); ok && req.IsCall() {
			switch {
			case seen[req.ID]:
				it.problem = fmt.Sprintf("the id %s is used twice in the batch", it.id)
			case f.out.inBatch(req.ID):
				it.problem = fmt.Sprintf("the id %s is the id of a request not yet answered", it.id)
			}
			seen[req.ID] = true
			calls = append(calls, req.ID)
		}
		bad = bad || it.problem != ""
	}
	if !bad && f.noBatches == "" {
		var rest [][]byte
		for i, it := range items {
			f.note(it.msg)
			if req, ok := it.msg.(*jsonrpc.Request); ok && !req.IsCall() {
				pass = append(append(pass, raws[i]...), '\n')
			} else {
				rest = append(rest, raws[i])
			}
		}
		if len(rest) > 0 {
			pass = append(pass, '[')
			pass = append(pass, bytes.Join(rest, []byte{','})...)
			pass = append(pass, ']', '\n')
		}
		f.out.addBatch(calls)
		return nil, pass
	}
	whole := "not run: the batch holds a bad message"
	if f.noBatches != "" {
		whole = "JSON-RPC batches are not supported from protocol version " + f.noBatches + " on"
	}
	var answers [][]byte
	for _, it := range items {
		switch {
		case it.problem != "":
			answers = append(answers, errorJSON(it.id, codeInvalidRequest, "Invalid Request: "+it.problem))
		case isCall(it.msg):
			answers = append(answers, errorJSON(it.id, codeInvalidRequest, "Invalid Request: "+whole))
		}
	}
	if len(answers) == 0 { // notifications and responses only
		return errorLine(nil, codeInvalidRequest, "Invalid Request: "+whole), nil
	}
	line := append([]byte{'['}, bytes.Join(answers, []byte{','})...)
	return append(line, ']', '\n'), nil
}

func isCall(m jsonrpc.Message) bool {
	req, ok := m.(*jsonrpc.Request)
	return ok && req.IsCall()
}

// tooLong returns the answer to a line longer than the filter passes on,
// of which prefix is the start: a parse error if prefix is not the start
// of JSON, else an invalid request with the id prefix gives.
func tooLong(prefix []byte) []byte {
	isJSON, id := scanPrefix(prefix)
	if !isJSON {
		return errorLine(nil, codeParseError, "Parse error: the line is not JSON")
	}
	return errorLine(id, codeInvalidRequest, fmt.Sprintf("Invalid Request: the line is too long (over %d bytes)", MaxLineLength))
}

// scanPrefix reports whether prefix can be the start of a JSON value,
// and returns the id of the JSON-RPC message it starts if the message's
// "id" member is in it whole and valid.
func scanPrefix(prefix []byte) (isJSON bool, id json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	dec.UseNumber()
	var (
		object bool // the value is an object
		depth  int
		key    = true // the next token at depth 1 is a key
		isID   bool   // the token before was the key "id"
		found  json.RawMessage
	)
	for {
		tok, err := dec.Token()
		if err != nil {
			if err != io.EOF && err != io.ErrUnexpectedEOF {
				return false, nil
			}
			return true, id
		}
		// A number at the end of prefix may go on past it: take the id
		// once a token follows it.
		if found != nil {
			id, found = found, nil
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				if depth == 0 {
					object = d == '{'
				}
				isID = false
				depth++
			default:
				depth--
				key = true
			}
			continue
		}
		if depth != 1 || !object {
			continue
		}
		if key {
			isID = tok == "id"
			key = false
			continue
		}
		if isID {
			var raw json.RawMessage
			switch v := tok.(type) {
			case string:
				raw, _ = json.Marshal(v)
			case json.Number:
				raw = json.RawMessage(v)
			}
			if raw != nil && checkID(raw) == "" {
				found = raw
			}
			isID = false
		}
		key = true
	}
}

// errorLine returns the line of a JSON-RPC error response with the given
// id (null if nil), code and message.
func errorLine(id json.RawMessage, code int, message string) []byte {
	return append(errorJSON(id, code, message), '\n')
}

func errorJSON(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	type wireError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, message}})
	if err != nil {
		panic(err) // the fields always marshal
	}
	return b
}

// nesting returns how deep the arrays and objects of the JSON text b
// nest.
func nesting(b []byte) int {
	depth, most := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped = c == '\\'
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			most = max(most, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return most
}
