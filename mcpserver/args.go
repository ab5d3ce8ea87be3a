package mcpserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// A param is an argument of a tool. One table of them gives both the
// tool's input schema and the checks of its arguments, so that an error
// names the argument and says what it takes in the server's own words.
type param struct {
	name     string
	kind     kind
	takes    string // what it takes, for errors: "a list of names"
	example  string // a JSON value it takes, for errors
	desc     string // its description in the schema
	required bool
}

// kind is the JSON type of an argument.
type kind int

const (
	kindStrings kind = iota // a list of strings; a string alone is a list of one
	kindString              // a string
	kindTokens              // a whole number from 1 to the server's most
)

// inputSchema returns the schema of arguments ps; maxTokens bounds the
// tokens.
func inputSchema(ps []param, maxTokens int) *jsonschema.Schema {
	props := make(map[string]*jsonschema.Schema, len(ps))
	var required []string
	one := 1
	for _, p := range ps {
		s := &jsonschema.Schema{Description: p.desc}
		switch p.kind {
		case kindStrings:
			s.Type, s.Items = "array", &jsonschema.Schema{Type: "string"}
			if p.required {
				s.MinItems = &one
			}
		case kindString:
			s.Type = "string"
			if p.required {
				s.MinLength = &one
			}
		case kindTokens:
			least, most := 1.0, float64(maxTokens)
			s.Type, s.Minimum, s.Maximum = "integer", &least, &most
			s.Description = fmt.Sprintf("%s; at most %d. Omit it for the server's budget.", p.desc, maxTokens)
		}
		props[p.name] = s
		if p.required {
			required = append(required, p.name)
		}
	}
	return &jsonschema.Schema{Type: "object", Properties: props, Required: required,
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
}

// decodeArgs checks the arguments raw of the tool named against ps and
// decodes them into the struct at into. A string given for a list is a
// list of one.
func decodeArgs(tool string, ps []param, maxTokens int, raw json.RawMessage, into any) error {
	var given map[string]json.RawMessage
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &given); err != nil {
			return fmt.Errorf("the arguments of %s are a JSON object of %s; got %s", tool, paramNames(ps), clip(raw))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(given)) {
		if !slices.ContainsFunc(ps, func(p param) bool { return p.name == name }) {
			return fmt.Errorf("%s has no argument %q; it takes %s", tool, name, paramNames(ps))
		}
	}
	checked := make(map[string]any, len(given))
	for _, p := range ps {
		v, ok := given[p.name]
		if !ok {
			if p.required {
				return fmt.Errorf("%s needs %s: %s, such as %s", tool, p.name, p.takes, p.example)
			}
			continue
		}
		x, err := p.check(v, maxTokens)
		if err != nil {
			return err
		}
		checked[p.name] = x
	}
	b, err := json.Marshal(checked)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, into)
}

// check returns the value of p given as v, or an error that says what p
// takes.
func (p param) check(v json.RawMessage, maxTokens int) (any, error) {
	wrong := func() error {
		return fmt.Errorf("%s takes %s, such as %s; got %s", p.name, p.takes, p.example, clip(v))
	}
	switch p.kind {
	case kindStrings:
		var one string
		if json.Unmarshal(v, &one) == nil && v[0] == '"' {
			if one == "" {
				return nil, fmt.Errorf("%s is empty; it takes %s, such as %s", p.name, p.takes, p.example)
			}
			return []string{one}, nil
		}
		var list []string
		if v[0] != '[' || json.Unmarshal(v, &list) != nil {
			return nil, wrong()
		}
		if p.required && len(list) == 0 {
			return nil, fmt.Errorf("%s is an empty list; it takes %s, such as %s", p.name, p.takes, p.example)
		}
		return list, nil
	case kindString:
		var s string
		if v[0] != '"' || json.Unmarshal(v, &s) != nil {
			return nil, wrong()
		}
		if p.required && s == "" {
			return nil, fmt.Errorf("%s is empty; it takes %s, such as %s", p.name, p.takes, p.example)
		}
		return s, nil
	case kindTokens:
		n, err := strconv.Atoi(string(v))
		if err != nil || n < 1 || n > maxTokens {
			return nil, fmt.Errorf("%s takes a whole number from 1 to %d (omit it for the server's budget); got %s", p.name, maxTokens, clip(v))
		}
		return n, nil
	}
	panic("mcpserver: unknown kind")
}

// paramNames returns the names of ps as a list in a sentence.
func paramNames(ps []param) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.name
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// clip returns the JSON v for an error, cut to a readable length.
func clip(v json.RawMessage) string {
	const most = 60
	s := string(v)
	if len(s) > most {
		s = strings.ToValidUTF8(s[:most], "") + "…"
	}
	return s
}
