package repomap

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Role is what a file is for in its repository, as its path, its name and
// the head of its content tell. The ranking puts the code of a tree
// first: its source, then its tests and examples below the code they
// use, then fixtures, generated and vendored code, and documents,
// configuration, CI and community files last, unless the request points
// at them.
type Role uint8

// The roles of files.
const (
	RoleSource    Role = iota // the code of the tree
	RoleTest                  // tests, by each language's conventions
	RoleExample               // examples, samples and demos
	RoleFixture               // test data, goldens, snapshots
	RoleGenerated             // generated code, lockfiles, minified bundles
	RoleVendored              // copies of other projects: vendor/, third_party/, node_modules/
	RoleDocs                  // documentation
	RoleConfig                // configuration and build files
	RoleCommunity             // CI and community files: .github/, CONTRIBUTING, CODEOWNERS…
	RoleAsset                 // images, fonts, media: never parsed
	numRoles
)

var roleNames = [numRoles]string{"source", "test", "example", "fixture", "generated", "vendored", "docs", "config", "community", "asset"}

// String returns the role's name, as ParseRole takes it.
func (r Role) String() string {
	if r < numRoles {
		return roleNames[r]
	}
	return fmt.Sprintf("Role(%d)", int(r))
}

// ParseRole returns the role named s.
func ParseRole(s string) (Role, error) {
	for i, n := range roleNames {
		if n == s {
			return Role(i), nil
		}
	}
	return 0, fmt.Errorf("repomap: unknown role %q (want one of %s)", s, strings.Join(roleNames[:], ", "))
}

// RoleRule gives the files whose path matches Glob the role Role, in
// place of the one found from their path and content. Glob has the syntax
// of Options.Exclude.
type RoleRule struct {
	Glob string
	Role Role
}

// RolesFile is the name of the file, at the root of a tree, whose lines
// give roles to files: a role and a glob, separated by space, as
// "fixture **/golden/**"; a line starting with "#" is a comment. Rules
// that come later win, and Options.Roles come after the file's.
const RolesFile = ".repomaproles"

// Sets of names that give a role.
var (
	vendorDirs    = set("vendor third_party third-party thirdparty node_modules bower_components")
	generatedDirs = set("dist")
	fixtureDirs   = set("testdata test-data test_data fixtures fixture __fixtures__ __snapshots__ golden goldens snapshots")
	testDirs      = set("test tests __tests__ spec specs e2e testfixtures") // testFixtures: Gradle's source set of the code tests share
	exampleDirs   = set("example examples _example _examples sample samples demo demos")
	docDirs       = set("doc docs documentation site website")
	ciDirs        = set(".github .gitlab .circleci .buildkite .azure-pipelines .devcontainer .ci ci .woodpecker .forgejo .gitea") // at the top of a root
	assetExts     = set(".svg .png .jpg .jpeg .gif .ico .webp .bmp .tif .tiff .woff .woff2 .ttf .otf .eot .mp3 .mp4 .wav .ogg .webm .pdf .psd")
	docExts       = set(".md .markdown .mdown .mkd .rst .adoc .asciidoc .txt .rdoc .pod .tex")
	configExts    = set(".yaml .yml .toml .json .jsonc .ini .cfg .conf .properties .xml .plist .csproj .fsproj .vbproj .lock .editorconfig")
	ciFiles       = set(".gitlab-ci.yml .travis.yml appveyor.yml .appveyor.yml azure-pipelines.yml codecov.yml .codecov.yml .pre-commit-config.yaml .golangci.yml .golangci.yaml .goreleaser.yml .goreleaser.yaml renovate.json .renovaterc dependabot.yml .mailmap codeowners .gitattributes .gitignore .dockerignore .npmignore .repomapignore .repomaproles")
	configFiles   = set("makefile gnumakefile dockerfile containerfile go.mod go.work cmakelists.txt build build.bazel workspace setup.py setup.cfg pyproject.toml tox.ini noxfile.py manifest.in package.json tsconfig.json jsconfig.json cargo.toml gemfile rakefile pom.xml build.gradle settings.gradle build.gradle.kts settings.gradle.kts jenkinsfile vagrantfile procfile")
	lockFiles     = set("go.sum package-lock.json npm-shrinkwrap.json yarn.lock pnpm-lock.yaml cargo.lock poetry.lock pipfile.lock composer.lock gemfile.lock uv.lock pdm.lock flake.lock")
	// community files go by their stem: CONTRIBUTING.md, SECURITY.rst…
	communityStems = set("contributing code_of_conduct code-of-conduct security support funding governance maintainers codeowners issue_template pull_request_template")
)

// pathRole returns the role of the file at p, a slash-separated path
// relative to its root, from its path alone.
func pathRole(p string) Role {
	lower := strings.ToLower(p)
	dirPart, base := "", lower
	if i := strings.LastIndexByte(lower, '/'); i >= 0 {
		dirPart, base = lower[:i], lower[i+1:]
	}
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	firstDir, _, _ := strings.Cut(dirPart, "/")
	has := func(names map[string]bool) bool {
		for d := range strings.SplitSeq(dirPart, "/") {
			if names[d] {
				return true
			}
		}
		return false
	}
	switch {
	case has(vendorDirs):
		return RoleVendored
	case dirPart != "" && ciDirs[firstDir], ciFiles[base], communityStems[stem] || communityStems[base]:
		return RoleCommunity
	case assetExts[ext]:
		return RoleAsset
	case generatedName(base) || has(generatedDirs):
		return RoleGenerated
	case has(fixtureDirs) || ext == ".golden" || ext == ".snap":
		return RoleFixture
	case docExts[ext] && !configFiles[base] && base != "requirements.txt" && !strings.HasPrefix(base, "requirements-"):
		return RoleDocs
	case configFiles[base] || base == "requirements.txt" || strings.HasPrefix(base, "requirements-") && ext == ".txt",
		configExts[ext] || scriptConfig(stem, ext) || strings.HasPrefix(base, ".eslintrc") || strings.HasPrefix(base, ".prettierrc") || strings.HasPrefix(base, ".babelrc"):
		return RoleConfig
	case testName(path.Base(p), ext) || has(testDirs) || testSourceSet(p):
		return RoleTest
	case has(exampleDirs):
		return RoleExample
	case has(docDirs):
		return RoleDocs
	}
	return RoleSource
}

// scriptConfig reports whether a file with the stem and extension ext
// (lower case) is a build tool's configuration written as a script:
// vite.config.ts, karma.conf.cjs, eslint.config.mjs.
func scriptConfig(stem, ext string) bool {
	switch ext {
	case ".js", ".cjs", ".mjs", ".ts", ".cts", ".mts":
		return strings.HasSuffix(stem, ".config") || strings.HasSuffix(stem, ".conf")
	}
	return false
}

// testSourceSet reports whether a directory of the path p is a Gradle
// source set of tests by its name: a camel-case one ending in Test or
// Tests, as jvmTest, commonTest or androidUnitTest.
func testSourceSet(p string) bool {
	dir, _ := path.Split(p)
	for d := range strings.SplitSeq(dir, "/") {
		stem, ok := strings.CutSuffix(d, "Test")
		if !ok {
			stem, ok = strings.CutSuffix(d, "Tests")
		}
		if ok && stem != "" && 'a' <= stem[0] && stem[0] <= 'z' && 'a' <= stem[len(stem)-1] && stem[len(stem)-1] <= 'z' {
			return true
		}
	}
	return false
}

// testName reports whether a file's base name, with its extension ext
// (lower case), makes it a test by its language's conventions.
func testName(base, ext string) bool {
	stem := base[:len(base)-len(ext)]
	if ext != ".java" && ext != ".kt" && ext != ".scala" && ext != ".cs" && ext != ".php" && ext != ".swift" && ext != ".dart" && ext != ".groovy" {
		stem = strings.ToLower(stem)
	}
	switch ext {
	case ".go":
		return strings.HasSuffix(stem, "_test")
	case ".py":
		return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || stem == "conftest" || stem == "tests"
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") || strings.HasSuffix(stem, ".e2e")
	case ".rb":
		return strings.HasSuffix(stem, "_spec") || strings.HasSuffix(stem, "_test") || strings.HasPrefix(stem, "test_")
	case ".java", ".kt", ".scala", ".cs", ".php", ".swift", ".dart", ".groovy":
		// Case matters: FooTest, FooTests, FooIT, foo_test, not Contest.
		// Not FooSpec: kotlinpoet's FileSpec, TypeSpec and FunSpec are its
		// API, and the specs of ScalaTest, Spock and Kotest live in test
		// source sets, which their directories tell (testSourceSet).
		return strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") ||
			strings.HasSuffix(stem, "IT") || strings.HasSuffix(stem, "_test")
	case ".exs", ".ex":
		return strings.HasSuffix(stem, "_test")
	case ".rs", ".c", ".cc", ".cpp", ".h", ".hpp", ".zig", ".lua", ".jl", ".r":
		return strings.HasSuffix(stem, "_test") || strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_tests")
	}
	return false
}

// generatedName reports whether a base name (lower case) is that of a
// generated file: protocol buffers, code generators' conventions,
// lockfiles, minified bundles and source maps.
func generatedName(base string) bool {
	if lockFiles[base] {
		return true
	}
	for _, suffix := range []string{".pb.go", ".pb.gw.go", "_pb2.py", "_pb2_grpc.py", "_pb2.pyi", ".pb.h", ".pb.cc", ".pb.ts", "_pb.js", "_pb.d.ts", ".g.dart", ".freezed.dart", ".min.js", ".min.css", ".js.map", ".css.map", ".designer.cs", "_string.go"} {
		if strings.HasSuffix(base, suffix) {
			return base != suffix[1:]
		}
	}
	return strings.HasPrefix(base, "zz_generated") || strings.Contains(base, "_generated.") || strings.Contains(base, ".generated.")
}

// generatedText reports whether the text of the file at name marks it as
// generated: by its head (generatedHead), or as a minified bundle.
func generatedText(name string, src []byte) bool {
	return generatedHead(src) || minified(name, src)
}

// minified reports whether src, the text of the file at name, is a
// minified script or style sheet: one of at least 1 KiB whose lines
// average more than 250 bytes. Written code averages well under 100 (the
// longest average of the canons' JavaScript is below 80), while bundles
// such as a checked-in .yarn/releases/yarn-4.x.cjs average thousands; a
// bundle that was not named *.min.js opened an unfocused map of babel.
func minified(name string, src []byte) bool {
	switch path.Ext(name) {
	case ".js", ".cjs", ".mjs", ".css":
	default:
		return false
	}
	return len(src) >= 1024 && len(src)/(bytes.Count(src, []byte{'\n'})+1) > 250
}

// generatedHead reports whether the head of a file's text marks it as
// generated: Go's "Code generated … DO NOT EDIT." line, "@generated", or
// "auto-generated" with "do not edit", within its first lines.
func generatedHead(src []byte) bool {
	head := src[:min(len(src), 1024)]
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		// The first five lines at most.
		n, end := 0, 0
		for end < len(head) && n < 5 {
			j := bytes.IndexByte(head[end:], '\n')
			if j < 0 {
				end = len(head)
				break
			}
			end += j + 1
			n++
		}
		head = head[:end]
	}
	lower := bytes.ToLower(head)
	switch {
	case bytes.Contains(head, []byte("Code generated")) && bytes.Contains(head, []byte("DO NOT EDIT")):
		return true
	case bytes.Contains(lower, []byte("@generated")):
		return true
	case (bytes.Contains(lower, []byte("auto-generated")) || bytes.Contains(lower, []byte("autogenerated")) || bytes.Contains(lower, []byte("automatically generated"))) && bytes.Contains(lower, []byte("do not edit")):
		return true
	}
	return false
}

// roleRules is a list of RoleRules, the last match winning.
type roleRules []RoleRule

// match returns the role the rules give p, and whether one matched.
func (rs roleRules) match(p string) (Role, bool) {
	for i := len(rs) - 1; i >= 0; i-- {
		g := cleanGlob(rs[i].Glob)
		if doublestar.MatchUnvalidated(g, p) || doublestar.MatchUnvalidated(g+"/**", p) {
			return rs[i].Role, true
		}
	}
	return 0, false
}

// parseRoles returns the rules of a RolesFile's text; a malformed line is
// an error naming it.
func parseRoles(name, text string) (roleRules, error) {
	var rs roleRules
	n := 0
	for line := range strings.Lines(text) {
		n++
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r, err := parseRoleRule(line)
		if err != nil {
			return nil, fmt.Errorf("repomap: %s:%d: %w", name, n, err)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// ParseRoleRule returns the rule that s gives, written as a line of a
// RolesFile: a role, a space and a glob, as "fixture **/golden/**".
func ParseRoleRule(s string) (RoleRule, error) {
	r, err := parseRoleRule(strings.TrimSpace(s))
	if err != nil {
		return RoleRule{}, fmt.Errorf("repomap: %w", err)
	}
	return r, nil
}

// parseRoleRule is ParseRoleRule without the package's prefix on errors.
func parseRoleRule(s string) (RoleRule, error) {
	role, glob, ok := strings.Cut(s, " ")
	glob = strings.TrimSpace(glob)
	if !ok || glob == "" {
		return RoleRule{}, fmt.Errorf("want a role and a glob, as \"fixture **/golden/**\": %q", s)
	}
	r, err := ParseRole(role)
	if err != nil {
		return RoleRule{}, fmt.Errorf("%q: unknown role %q (want one of %s)", s, role, strings.Join(roleNames[:], ", "))
	}
	if !doublestar.ValidatePattern(cleanGlob(glob)) {
		return RoleRule{}, fmt.Errorf("%q: bad glob %q", s, glob)
	}
	return RoleRule{Glob: glob, Role: r}, nil
}

// set returns the words of a string as a set.
func set(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
