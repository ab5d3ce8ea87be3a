package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressTo returns a repomap.Options.Progress function that shows a
// progress bar of the files parsed on w, or nil when w is not a terminal:
// a long scan shows how far it is, and nothing is written into a pipe or
// a file.
func progressTo(w io.Writer) func(done, total int) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if bar == nil {
			if total < 200 { // too quick to be worth a bar
				return
			}
			bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(f),
				progressbar.OptionSetDescription("parsing"),
				progressbar.OptionShowCount(),
				progressbar.OptionShowIts(),
				progressbar.OptionSetItsString("files"),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionClearOnFinish(),
			)
		}
		bar.Set(done)
		if done >= total {
			bar.Finish()
		}
	}
}
