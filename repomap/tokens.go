package repomap

import (
	"fmt"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// The token encodings a map can be measured in.
const (
	O200kBase  = "o200k_base"  // GPT-4o and later; the default
	Cl100kBase = "cl100k_base" // GPT-4 and GPT-3.5
)

// encodings holds each loaded encoding; loading parses the embedded BPE
// tables, which takes a few hundred milliseconds, so it happens once per
// process and only for encodings in use.
var encodings sync.Map // name → func() (*tiktoken.Tiktoken, error)

// encoding returns the named tiktoken encoding, loaded from the tables
// embedded in the binary: counting tokens never touches the network.
func encoding(name string) (*tiktoken.Tiktoken, error) {
	switch name {
	case O200kBase, Cl100kBase:
	default:
		return nil, fmt.Errorf("repomap: unknown encoding %q (want %s or %s)", name, O200kBase, Cl100kBase)
	}
	load, _ := encodings.LoadOrStore(name, sync.OnceValues(func() (*tiktoken.Tiktoken, error) {
		// tiktoken-go reads its tables through a package-level loader whose
		// default downloads them. Point it at the embedded tables right
		// before loading, every time, so nothing else can make us download.
		loaderMu.Lock()
		defer loaderMu.Unlock()
		tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
		enc, err := tiktoken.GetEncoding(name)
		if err != nil {
			return nil, fmt.Errorf("repomap: load encoding %s: %w", name, err)
		}
		return enc, nil
	}))
	return load.(func() (*tiktoken.Tiktoken, error))()
}

var loaderMu sync.Mutex

// countTokens returns the number of tokens of text in enc.
func countTokens(enc *tiktoken.Tiktoken, text string) int {
	if text == "" {
		return 0
	}
	return len(enc.EncodeOrdinary(text))
}
