package main

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress is a progress bar of the files parsed, on a terminal, then
// the name of each stage of the map after the parse.
type progress struct {
	f   *os.File
	mu  sync.Mutex
	bar *progressbar.ProgressBar
	// staged is set once bar shows the stages after the parse.
	staged bool
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

// stageWords are the words a bar shows for the stages of a map after
// the parse.
var stageWords = map[string]string{"link": "linking", "rank": "ranking", "render": "fitting"}

// stage is a repomap.Options.Stage function. After a parse long enough
// to show a bar, the bar gives way to the name of each stage that
// follows, so that a large tree's map does not seem stuck once its files
// are parsed; a map that parsed little shows nothing.
func (p *progress) stage(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		return
	}
	words, ok := stageWords[name]
	if !ok {
		p.bar.Clear()
		return
	}
	if !p.staged {
		p.bar.Clear()
		p.bar = progressbar.NewOptions(-1,
			progressbar.OptionSetWriter(p.f),
			progressbar.OptionSetSpinnerChangeInterval(0), // drawn when described, by no goroutine of its own
			progressbar.OptionClearOnFinish(),
		)
		p.staged = true
	}
	p.bar.Describe(words)
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
