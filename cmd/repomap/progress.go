package main

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress is a progress bar of the files parsed, on a terminal.
type progress struct {
	f   *os.File
	mu  sync.Mutex
	bar *progressbar.ProgressBar
}

// progressTo returns a progress bar on w, or nil when w is not a
// terminal: a long scan shows how far it is, and nothing is written into
// a pipe or a file.
func progressTo(w io.Writer) *progress {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return &progress{f: f}
}

// update is a repomap.Options.Progress function: it shows done of total.
func (p *progress) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		if total < 200 { // too quick to be worth a bar
			return
		}
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(p.f),
			progressbar.OptionSetDescription("parsing"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("files"),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	p.bar.Set(done)
	if done >= total {
		p.bar.Finish()
	}
}

// clear removes the bar from the terminal, if one is shown; p may be nil.
func (p *progress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Clear()
	}
}
