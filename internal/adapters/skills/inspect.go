package skills

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// maxSkillFile bounds what is read of an installed SKILL.md.
const maxSkillFile = 1 << 20

// Inspect reports every context-tree-* entry of loc: current when it is
// exactly what the bundle installs, stale when it carries a version but
// install would replace or remove it, unknown when it has no readable
// metadata.version. Symlinks are reported, never followed.
func Inspect(loc Location, b *Bundle) ([]contracts.InstalledSkill, error) {
	out := []contracts.InstalledSkill{}
	exists, err := checkPath(loc)
	if err != nil || !exists {
		return out, err
	}
	owned, _, err := entries(loc.Dir())
	if err != nil {
		return out, err
	}
	for _, n := range owned {
		out = append(out, inspectEntry(loc.Dir(), n, b))
	}
	return out, nil
}

func inspectEntry(dir, name string, b *Bundle) contracts.InstalledSkill {
	p := filepath.Join(dir, name)
	is := contracts.InstalledSkill{Name: name, Path: p, Status: contracts.SkillUnknown}
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		is.Reason = err.Error()
		return is
	case fi.Mode()&fs.ModeSymlink != 0:
		is.Reason = "a symlink (not followed)"
		return is
	case !fi.IsDir():
		is.Reason = "not a directory"
		return is
	}
	data, err := readRegular(filepath.Join(p, skillFile))
	if err != nil {
		is.Reason = "no readable " + skillFile + ": " + err.Error()
		return is
	}
	meta, err := ParseMeta(data)
	if err != nil {
		is.Reason = skillFile + " frontmatter: " + err.Error()
		return is
	}
	if is.Version = meta.Version(); is.Version == "" {
		is.Reason = "no metadata.version in " + skillFile
		return is
	}
	is.Status = contracts.SkillStale
	s, ours := b.Skill(name)
	switch {
	case !ours:
		is.Reason = fmt.Sprintf("not shipped by version %s; install removes it", b.Version)
	case is.Version != b.Version:
		is.Reason = fmt.Sprintf("version %s; this binary is %s", is.Version, b.Version)
	case !sameSkill(p, s):
		is.Reason = "content differs from what this binary installs"
	default:
		is.Status, is.Reason = contracts.SkillCurrent, ""
	}
	return is
}

// readRegular reads a regular file (not a symlink) of bounded size.
func readRegular(p string) ([]byte, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSkillFile+1))
	if err == nil && len(data) > maxSkillFile {
		err = fmt.Errorf("%s is larger than %d bytes", p, maxSkillFile)
	}
	return data, err
}

// sameSkill reports whether the directory p holds exactly skill s: the
// same files with the same bytes, files 0644 and directories 0755, and
// nothing else (no symlinks).
func sameSkill(p string, s *Skill) bool {
	fi, err := os.Lstat(p)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o755 {
		return false
	}
	dirs := map[string]bool{}
	for _, d := range s.dirs() {
		dirs[d] = true
	}
	files := 0
	ok := true
	err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(p, q)
		rel = path.Clean(filepath.ToSlash(rel))
		if rel == "." {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			ok = ok && dirs[rel] && info.Mode().Perm() == 0o755
		case info.Mode().IsRegular():
			want, found := s.Files[rel]
			ok = ok && found && info.Mode().Perm() == 0o644 && info.Size() == int64(len(want))
			if ok {
				got, err := os.ReadFile(q)
				ok = err == nil && string(got) == string(want)
			}
			files++
		default:
			ok = false
		}
		if !ok {
			return fs.SkipAll
		}
		return nil
	})
	return err == nil && ok && files == len(s.Files)
}
