package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/template"
)

// The npm packages follow esbuild's pattern: a package per platform holds
// that platform's binary and says which platform it is for (os, cpu); the
// main package lists them all as optional dependencies, so npm installs
// the one for the machine, and its bin script runs that one's binary.

// npmPlatform returns the names Node.js gives t's OS and CPU
// (process.platform and process.arch).
func npmPlatform(t target) (platform, arch string) {
	platform, arch = t.goos, t.goarch
	if platform == "windows" {
		platform = "win32"
	}
	if arch == "amd64" {
		arch = "x64"
	}
	return platform, arch
}

// A packageJSON is what a package.json holds.
type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license"`
	Repository           repository        `json:"repository"`
	Homepage             string            `json:"homepage"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
	Bin                  map[string]string `json:"bin,omitempty"`
	Engines              map[string]string `json:"engines,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
}

type repository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

var (
	//go:embed repomap.js.tmpl
	shimText     string
	shimTemplate = template.Must(template.New("repomap.js").Parse(shimText))

	//go:embed npm-readme.md.tmpl
	npmReadmeText     string
	npmReadmeTemplate = template.Must(template.New("README.md").Parse(npmReadmeText))
)

// npmPackages makes the npm packages of the release in dir: one per
// binary, and the main one, each packed by npm pack into a .tgz.
func npmPackages(ctx context.Context, dir, root, scope string, rel releaseInfo, built []binary, stderr io.Writer) error {
	base := func(name string) packageJSON {
		return packageJSON{
			Name:        name,
			Version:     rel.Semver(),
			Description: "A map of a repository for coding agents: the definitions that matter, in a token budget",
			License:     "Apache-2.0",
			Repository:  repository{Type: "git", URL: "git+https://github.com/" + rel.Repo + ".git"},
			Homepage:    "https://github.com/" + rel.Repo,
		}
	}
	mainName := scope + "/repomap"
	main := base(mainName)
	main.Bin = map[string]string{"repomap": "bin/repomap.js"}
	main.Engines = map[string]string{"node": ">=16"}
	main.OptionalDependencies = map[string]string{}
	packages := map[string]string{} // process.platform-process.arch → package
	var dirs []string
	for _, b := range built {
		platform, arch := npmPlatform(b.target)
		p := base(mainName + "-" + platform + "-" + arch)
		p.Description = "The repomap binary for " + platform + " " + arch + "; install " + mainName + " instead"
		p.OS, p.CPU, p.PreferUnplugged = []string{platform}, []string{arch}, true
		pdir := filepath.Join(dir, "repomap-"+platform+"-"+arch)
		files := map[string][]byte{}
		data, err := os.ReadFile(b.path)
		if err != nil {
			return err
		}
		files["bin/"+b.target.exe()] = data
		if err := writePackage(pdir, p, files, root); err != nil {
			return err
		}
		dirs = append(dirs, pdir)
		main.OptionalDependencies[p.Name] = p.Version
		packages[platform+"-"+arch] = p.Name
	}
	pkgs, err := json.Marshal(packages)
	if err != nil {
		return err
	}
	var shim, readme bytes.Buffer
	if err := shimTemplate.Execute(&shim, map[string]string{"Packages": string(pkgs), "Repo": rel.Repo}); err != nil {
		return err
	}
	if err := npmReadmeTemplate.Execute(&readme, map[string]string{"Main": mainName, "Version": rel.Version, "Repo": rel.Repo}); err != nil {
		return err
	}
	mdir := filepath.Join(dir, "repomap")
	if err := writePackage(mdir, main, map[string][]byte{"bin/repomap.js": shim.Bytes(), "README.md": readme.Bytes()}, root); err != nil {
		return err
	}
	dirs = append(dirs, mdir)

	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for _, d := range dirs {
		if err := runIn(ctx, d, stderr, nil, "npm", "pack", "--silent", "--pack-destination", abs); err != nil {
			return err
		}
		if err := os.RemoveAll(d); err != nil {
			return err
		}
	}
	return nil
}

// writePackage writes a package's directory: its package.json, files,
// and the module's LICENSE. Files under bin/ are executable.
func writePackage(dir string, p packageJSON, files map[string][]byte, root string) error {
	pj, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	license, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		return err
	}
	files["package.json"] = append(pj, '\n')
	files["LICENSE"] = license
	for name, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if filepath.Base(filepath.Dir(path)) == "bin" {
			mode = 0o755
		}
		if err := os.WriteFile(path, data, mode); err != nil {
			return fmt.Errorf("npm package %s: %w", p.Name, err)
		}
	}
	return nil
}
