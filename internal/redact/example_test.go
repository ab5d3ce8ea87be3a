package redact_test

import (
	"fmt"

	"github.com/repomap-dev/repomap/internal/redact"
)

func ExampleLine() {
	for _, line := range []string{
		`const githubToken = "ghp_0123456789abcdefghijklmnopqrstuvwxyZ"`,
		`password: hunter2`,
		`password := os.Getenv("PASSWORD")`,
	} {
		s, changed := redact.Line(line)
		fmt.Println(changed, s)
	}
	// Output:
	// true const githubToken = "<redacted>"
	// true password: <redacted>
	// false password := os.Getenv("PASSWORD")
}

func ExampleLines() {
	lines := []string{
		"-----BEGIN EC PRIVATE KEY-----",
		"MHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1aY/PuoAoGCCqGSM49",
		"-----END EC PRIVATE KEY-----",
	}
	fmt.Println(redact.Lines(lines))
	// Output:
	// map[1:<redacted>]
}
