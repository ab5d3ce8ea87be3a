package mcpserver

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Progress passes a Map's progress on to the tool calls that asked for
// it with a progress token, as MCP progress notifications. Make the Map
// with Report as its Options.Progress, and give the Progress to the
// server in Options. A nil *Progress reports nothing.
type Progress struct {
	mu          sync.Mutex
	next        int
	calls       map[int]func(done, total int)
	done, total int // the last report
}

// Report tells the calls waiting for the Map that done of total files
// are parsed.
func (p *Progress) Report(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total = done, total
	for _, notify := range p.calls {
		notify(done, total)
	}
}

// last returns the last report, or zeros.
func (p *Progress) last() (done, total int) {
	if p == nil {
		return 0, 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done, p.total
}

// watch sends the progress reported from now on to the client of req,
// if it sent a progress token, until the function it returns is called.
func (p *Progress) watch(ctx context.Context, req *mcp.CallToolRequest) (stop func()) {
	if p == nil || req == nil || req.Params == nil || req.Session == nil {
		return func() {}
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return func() {}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.calls == nil {
		p.calls = make(map[int]func(done, total int))
	}
	id := p.next
	p.next++
	p.calls[id] = func(done, total int) {
		// A client that went away gets nothing more; the call goes on.
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token,
			Progress:      float64(done),
			Total:         float64(total),
			Message:       "parsing files",
		})
	}
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.calls, id)
	}
}
