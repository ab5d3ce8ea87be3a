package redact

import (
	"flag"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/repomap-dev/repomap/internal/corpus"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/credentials.txtar")

// redactText redacts the lines of text with Lines.
func redactText(text string) string {
	lines := strings.Split(text, "\n")
	for i, s := range Lines(lines) {
		lines[i] = s
	}
	return strings.Join(lines, "\n")
}

func TestCredentials(t *testing.T) {
	const name = "testdata/credentials.txtar"
	ar, err := txtar.ParseFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var secrets []string
	inputs := make(map[string]string)
	for _, f := range ar.Files {
		switch {
		case f.Name == "secrets":
			// One a line: a secret may hold spaces.
			secrets = strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n")
		case !strings.HasSuffix(f.Name, ".want"):
			inputs[f.Name] = string(f.Data)
		}
	}
	got := make(map[string]string)
	for i, f := range ar.Files {
		in, ok := inputs[strings.TrimSuffix(f.Name, ".want")]
		if !ok || !strings.HasSuffix(f.Name, ".want") {
			continue
		}
		out := redactText(in)
		got[f.Name] = out
		if *update {
			ar.Files[i].Data = []byte(out)
		} else if out != string(f.Data) {
			t.Errorf("Lines(%s) =\n%s\nwant\n%s", strings.TrimSuffix(f.Name, ".want"), out, f.Data)
		}
	}
	if *update {
		if err := os.WriteFile(name, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range secrets {
		found := false
		for _, in := range inputs {
			found = found || strings.Contains(in, s)
		}
		if !found {
			t.Errorf("secret %q is in no file of %s", s, name)
		}
		for f, out := range got {
			if strings.Contains(out, s) {
				t.Errorf("secret %q survives the redaction of %s", s, strings.TrimSuffix(f, ".want"))
			}
		}
	}
}

func TestOrdinaryLines(t *testing.T) {
	// Lines of code and configuration that name secrets, or look like
	// they might hold one, and hold none.
	for _, line := range []string{
		`tokens := strings.Fields(s)`,
		`max_tokens: 1024`,
		`password := os.Getenv("PASSWORD")`,
		`DATABASE_PASSWORD = os.environ["DATABASE_PASSWORD"]`,
		`	Password: "",`,
		`	Password: pw,`,
		`	password = value`,
		`	state.secret = hs.masterSecret`,
		`case "password":`,
		`sortKey = "name"`,
		`apiKey := cfg.APIKey`,
		`token_type: bearer`,
		`csrfTokenHeader = "X-CSRF-Token"`,
		`const fakeConnectionToken = "X-Fake-Connection-Token"`,
		`cmd.Env = append(os.Environ(), "PWD="+dir)`,
		`PWD=/home/user/src`,
		`password: ${DB_PASSWORD}`,
		`api_key: "{{ .Values.apiKey }}"`,
		`password: "<your password>"`,
		`password: "********"`,
		`password: str`,
		`    password: string;`,
		`token: Optional[str] = None`,
		`secret_name: my-app-secret`,
		`"encodeUserPassword": "encodeUserPassword",`,
		`out := "http://user:***@dummy.faketld/"`,
		`url := "https://example.com/path?q=1"`,
		`x := a == b && c != d`,
		`socksAuthMethodUsernamePassword socksAuthMethod = 0x02 // use username/password`,
		`NoDeadLocals int ` + "`" + `help:"disable deadlocals pass" concurrent:"ok"` + "`",
		`// groupname:password:GID`,
		`if strings.HasPrefix(key, "sk-") {`,
		`const prefix = "ghp_"`,
		`// -----BEGIN PUBLIC KEY-----`,
		`Authorization: Bearer $TOKEN`,
		`timeout: 30`,
		`token = "abc"`,
		`api_key: "changeme"`,
		`password: "$DB_PASSWORD"`,
		`password: "%s"`,
		`password: "%(password)s"`,
		`log.Printf("password: %v", err)`,
		`msg := "password: " + reason`,
		`# password: kept in the vault`,
		`	<-afterSecondLog // Delay the "PASS: TestInterruptor" line`,
		`	password []byte`,
		"`<IgnoreTest><PublicSecret>ignore me</PublicSecret></IgnoreTest>`",
		`const sid=this.decodeBytes(4*subAuthorityCount);return{pSid,attributes,sid};}`,
		`item.renderPass=renderPass;item.renderPassId=id;`,
		`{"01002:03:04:05:06", nil, "invalid MAC address"},`,
		`{"", "2006-01-02T15:04:05Z07:00:00", "2010-02-04T21:00:57Z", false, false, 1, 0},`,
		`// Here the function identified by "repeat" is overwritten.`,
		`// The password is required.`,
		`Authorization: Bearer <token>`,
		`curl -u "$USER:$PASS" https://example.com`,
	} {
		if got, ok := Line(line); ok || got != line {
			t.Errorf("Line(%q) = %q, %v; want it unchanged", line, got, ok)
		}
	}
}

func TestLines(t *testing.T) {
	lines := []string{
		`var key = []byte("" +`,
		`	"-----BEGIN RSA PRIVATE KEY-----\n" +`,
		`	"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n" +`,
		`	"VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n" +`,
		`	"-----END RSA PRIVATE KEY-----\n")`,
		`var cert = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun"`,
	}
	got := Lines(lines)
	want := map[int]string{
		2: `	"<redacted>\n" +`,
		3: `	"<redacted>\n" +`,
	}
	if len(got) != len(want) {
		t.Errorf("Lines changed rows %v, want %v", got, want)
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("Lines(...)[%d] = %q, want %q", i, got[i], w)
		}
	}
	// Without its END line, a block runs as far as lines of key material.
	if got := Lines(append(slices.Clone(lines[1:4]), "func main() {", "\tx := 1", "}")); len(got) != 2 {
		t.Errorf("Lines(a block with no END line) changed %d rows, want 2: %v", len(got), got)
	}
	// A header that does not end its line starts no block.
	doc := []string{
		"// Key reads a key (-----BEGIN RSA PRIVATE KEY-----, or PKCS #8).",
		"func Key(data []byte) (any, error) {",
		"\treturn parse(data)",
		"}",
	}
	if got := Lines(doc); len(got) != 0 {
		t.Errorf("Lines(a comment naming a header) = %v, want no change", got)
	}
}

// TestStandardLibrary counts the lines that redaction changes in the Go
// files of net/http, which hold no credential but test passwords in URLs,
// in a constant and in a header: ordinary code must come through as it
// is, and none of its names holds a secret.
func TestStandardLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("reads net/http")
	}
	dir := corpus.GoSrc(t, "net/http")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.go"))
	more, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Skip("no net/http sources")
	}
	total, changed := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// No name of code holds a secret, however it looks.
		var s scanner.Scanner
		fset := token.NewFileSet()
		s.Init(fset.AddFile(f, -1, len(data)), data, nil, 0)
		for pos, tok, lit := s.Scan(); tok != token.EOF; pos, tok, lit = s.Scan() {
			if tok == token.IDENT && HoldsSecret(lit) {
				t.Errorf("%s: HoldsSecret(%q) = true, want false", fset.Position(pos), lit)
			}
		}
		lines := strings.Split(string(data), "\n")
		total += len(lines)
		for i, s := range Lines(lines) {
			changed++
			t.Logf("%s:%d: %s", filepath.Base(f), i+1, s)
		}
	}
	t.Logf("%d of %d lines changed", changed, total)
	if changed*1000 > total {
		t.Errorf("%d of %d lines changed, want at most one in a thousand", changed, total)
	}
}
