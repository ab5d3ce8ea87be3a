package eval

import (
	"context"

	"github.com/repomap-dev/repomap/repomap"
)

// roleProbe finds the role a repomap.Map gives a file of a tree (see
// repomap.Role), through the public API: a Map of a tree that holds the
// file alone, with the tree's repomap.RolesFile if it has one, and the
// count of roles of that map's Stats. The role of a file depends on its
// path, its head and the tree's RolesFile, so a probe is exact: the
// probed Map reads the same blob, by the same rules, as the maps of the
// whole tree.
//
// Roles are kept by path, blob and RolesFile blob, so a file is probed
// once in a run however many trees hold it.
type roleProbe struct {
	fsys  *treeFS
	m     *repomap.Map
	roles map[string]repomap.Role
}

func newRoleProbe(bl *blobs) (*roleProbe, error) {
	fsys := &treeFS{blobs: bl}
	fsys.set(newTree(nil))
	m, err := repomap.NewFS(fsys, &repomap.Options{NoCache: true, Refresh: repomap.RefreshAlways, Parallelism: 1})
	if err != nil {
		return nil, err
	}
	return &roleProbe{fsys: fsys, m: m, roles: make(map[string]repomap.Role)}, nil
}

func (rp *roleProbe) Close() error { return rp.m.Close() }

// role returns the role of the file at p, e, in a tree whose RolesFile is
// rules (the zero entry when it has none); false when the map leaves the
// file out (as it does a file in a directory named .git), which then has
// no role.
func (rp *roleProbe) role(ctx context.Context, p string, e, rules entry) (repomap.Role, bool, error) {
	key := p + "\x00" + e.oid + "\x00" + rules.oid
	if r, ok := rp.roles[key]; ok {
		return r, r != noRole, nil
	}
	if e.size == 0 {
		// A size from a commit's changes, which have none: the map
		// checks it against its largest file.
		data, err := rp.fsys.blobs.read(e.oid)
		if err != nil {
			return 0, false, err
		}
		e.size = int64(len(data))
	}
	files := map[string]entry{p: e}
	var base map[string]int // the roles of the tree without p
	if rules.oid != "" && p != repomap.RolesFile {
		files[repomap.RolesFile] = rules
		var err error
		if base, err = rp.count(ctx, map[string]entry{repomap.RolesFile: rules}); err != nil {
			return 0, false, err
		}
	}
	counts, err := rp.count(ctx, files)
	if err != nil {
		return 0, false, err
	}
	for name, n := range counts {
		if n-base[name] != 1 {
			continue
		}
		r, err := repomap.ParseRole(name)
		if err != nil {
			return 0, false, err
		}
		rp.roles[key] = r
		return r, true, nil
	}
	rp.roles[key] = noRole
	return 0, false, nil
}

// noRole marks a file the probe's map leaves out.
const noRole = repomap.Role(255)

// count returns the roles of the files of a map of files.
func (rp *roleProbe) count(ctx context.Context, files map[string]entry) (map[string]int, error) {
	rp.fsys.set(newTree(files))
	res, err := rp.m.Build(ctx, repomap.Request{MaxTokens: 1})
	if err != nil {
		return nil, err
	}
	return res.Stats.Roles, nil
}
