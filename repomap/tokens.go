package repomap

import (
	"fmt"

	"github.com/repomap-dev/repomap/internal/tokens"
)

// The token encodings a map can be measured in.
const (
	O200kBase  = tokens.O200kBase  // GPT-4o and later; the default
	Cl100kBase = tokens.Cl100kBase // GPT-4 and GPT-3.5
)

// encoding returns the named tiktoken encoding, loaded once per process
// from the tables built into the binary: counting tokens never touches
// the network.
func encoding(name string) (*tokens.Encoding, error) {
	enc, err := tokens.Get(name)
	if err != nil {
		return nil, fmt.Errorf("repomap: %w", err)
	}
	return enc, nil
}

// countTokens returns the number of tokens of text in enc.
func countTokens(enc *tokens.Encoding, text string) int { return enc.Count(text) }
