package index

import (
	"fmt"
	"strconv"
	"time"
)

// SkipKind is the kind of reason a file is left out of the map, or of
// parsing.
type SkipKind uint8

// The kinds of reasons. The numbers are kept in the disk cache
// (Skip.encode): a new kind takes a new number.
const (
	NotSkipped SkipKind = iota
	// SkipVendored: a file that a package manager installed, listed
	// but not parsed (Options.ParseVendored); it is not reported.
	SkipVendored
	// SkipLarge: larger than the size limit, Skip.Limit bytes.
	SkipLarge
	// SkipBinary: its head holds a NUL byte.
	SkipBinary
	// SkipUnreadable: the system would not open or read it; Skip.Err
	// says why.
	SkipUnreadable
	// SkipSymlink: a symbolic link, or below one.
	SkipSymlink
	// SkipIrregular: not a regular file (a device, a pipe, a socket).
	SkipIrregular
	// SkipChanged: replaced by another file while the tree was read.
	SkipChanged
	// SkipParse: the parser failed; Skip.Err says why.
	SkipParse
	// SkipTimedOut: its parses ran out of Skip.Timeout.
	SkipTimedOut
	// SkipClash: its path, a credential redacted from it or its bytes
	// quoted, is another file's.
	SkipClash
	numSkipKinds
)

// skipNames are the kinds' names, as SkipKind.String gives them.
var skipNames = [numSkipKinds]string{"", "vendored", "large", "binary", "unreadable", "symlink", "irregular", "changed",
	"parse", "timeout", "clash"}

// String returns the kind's name: one lower-case word ("large",
// "unreadable", …); "" for NotSkipped.
func (k SkipKind) String() string {
	if k < numSkipKinds {
		return skipNames[k]
	}
	return "kind" + strconv.Itoa(int(k))
}

// Skip is why a file is left out: its kind and, for some kinds, what
// the reason depends on. The zero value is a file not left out.
type Skip struct {
	Kind SkipKind
	// Limit is the size limit of SkipLarge, in bytes; Timeout the time
	// limit of SkipTimedOut; Err the system's or the parser's words for
	// SkipUnreadable and SkipParse.
	Limit   int64
	Timeout time.Duration
	Err     string
}

// String returns the reason in words, as the map reports it.
func (s Skip) String() string {
	switch s.Kind {
	case NotSkipped:
		return ""
	case SkipVendored:
		return "vendored: not parsed"
	case SkipLarge:
		return fmt.Sprintf("larger than %d bytes", s.Limit)
	case SkipBinary:
		return "binary"
	case SkipUnreadable:
		return "unreadable: " + s.Err
	case SkipSymlink:
		return "symbolic link"
	case SkipIrregular:
		return "not a regular file"
	case SkipChanged:
		return "changed during the scan"
	case SkipParse:
		return "parse: " + s.Err
	case SkipTimedOut:
		return fmt.Sprintf("parse took longer than %v", s.Timeout)
	case SkipClash:
		return "its path, a credential redacted or its bytes quoted, is another file's"
	}
	return s.Kind.String()
}

// encode returns the form of s the disk cache keeps (cache.Entry.Skip):
// "" for none, else the kind's number as one byte, then what it depends
// on: the limit or the timeout in decimal, or the error's words.
func (s Skip) encode() string {
	switch s.Kind {
	case NotSkipped:
		return ""
	case SkipLarge:
		return string(rune(s.Kind)) + strconv.FormatInt(s.Limit, 10)
	case SkipTimedOut:
		return string(rune(s.Kind)) + strconv.FormatInt(int64(s.Timeout), 10)
	}
	return string(rune(s.Kind)) + s.Err
}

// decodeSkip returns the Skip whose form (encode) is v, and whether v is
// one.
func decodeSkip(v string) (Skip, bool) {
	if v == "" {
		return Skip{}, true
	}
	k := SkipKind(v[0])
	if k == NotSkipped || k >= numSkipKinds {
		return Skip{}, false
	}
	s := Skip{Kind: k}
	var err error
	switch k {
	case SkipLarge:
		s.Limit, err = strconv.ParseInt(v[1:], 10, 64)
	case SkipTimedOut:
		var d int64
		d, err = strconv.ParseInt(v[1:], 10, 64)
		s.Timeout = time.Duration(d)
	case SkipUnreadable, SkipParse:
		s.Err = v[1:]
	default:
		if len(v) > 1 {
			return Skip{}, false
		}
	}
	return s, err == nil
}
