package main

import (
	"bytes"
	_ "embed"
	"os"
	"strings"
	"text/template"
)

// releaseInfo is what the install script and the formula are made from.
type releaseInfo struct {
	Version  string // v1.2.3
	Repo     string // owner/name on GitHub
	Archives []archive
}

// Semver returns the version without its "v".
func (r releaseInfo) Semver() string { return strings.TrimPrefix(r.Version, "v") }

// DownloadURL returns where the release's files are on GitHub.
func (r releaseInfo) DownloadURL() string {
	return "https://github.com/" + r.Repo + "/releases/download/" + r.Version
}

// Unix returns the archives for Linux and macOS.
func (r releaseInfo) Unix() []archive {
	var as []archive
	for _, a := range r.Archives {
		if a.Target.goos == "linux" || a.Target.goos == "darwin" {
			as = append(as, a)
		}
	}
	return as
}

// A formulaOS is an on_macos or on_linux block of the formula.
type formulaOS struct {
	OS       string // macos, linux
	Archives []formulaArchive
}

// A formulaArchive is an on_arm or on_intel block.
type formulaArchive struct {
	CPU          string // arm, intel
	Name, SHA256 string
}

// Formula returns the formula's blocks, macOS first, arm first.
func (r releaseInfo) Formula() []formulaOS {
	var blocks []formulaOS
	for _, sys := range [][2]string{{"darwin", "macos"}, {"linux", "linux"}} {
		block := formulaOS{OS: sys[1]}
		for _, cpu := range [][2]string{{"arm64", "arm"}, {"amd64", "intel"}} {
			for _, a := range r.Archives {
				if a.Target == (target{sys[0], cpu[0]}) {
					block.Archives = append(block.Archives, formulaArchive{CPU: cpu[1], Name: a.Name, SHA256: a.SHA256})
				}
			}
		}
		if len(block.Archives) > 0 {
			blocks = append(blocks, block)
		}
	}
	return blocks
}

var (
	//go:embed install.sh.tmpl
	installText     string
	installTemplate = template.Must(template.New("install.sh").Parse(installText))

	//go:embed formula.rb.tmpl
	formulaText     string
	formulaTemplate = template.Must(template.New("repomap.rb").Parse(formulaText))
)

// writeTemplate writes tmpl executed with rel to path.
func writeTemplate(path string, tmpl *template.Template, rel releaseInfo, mode os.FileMode) error {
	var b bytes.Buffer
	if err := tmpl.Execute(&b, rel); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), mode)
}
