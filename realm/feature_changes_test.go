package realm

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// The description of Zulip's API and the spec, beside the repository.
const (
	openAPIDescription = "../../shared/reference/zulip-openapi.yaml"
	specDocument       = "../../shared/spec/api.md"
)

// featureNote is one "feature level N" note of the description or the
// spec: the level, where it sits and the sentence that names it.
type featureNote struct {
	level        int
	where, field string
	text         string
	// newIn: the note says the thing is new at the level.
	newIn bool
}

var newInRE = regexp.MustCompile(`(?i)new in zulip [0-9.]+ \($`)

var featureLevelRE = regexp.MustCompile(`[Ff]eature level (\d+)`)

// notesFrom lists the notes of a text from level 185 on.
func notesFrom(text, where, field string) []featureNote {
	var out []featureNote
	for _, m := range featureLevelRE.FindAllStringSubmatchIndex(text, -1) {
		n, _ := strconv.Atoi(text[m[2]:m[3]])
		if n < firstTabledLevel {
			continue
		}
		out = append(out, featureNote{level: n, where: where, field: field, text: sentenceAround(text, m[0]), newIn: newInRE.MatchString(text[:m[0]])})
	}
	return out
}

// sentenceAround is the sentence of text around index i, on one line.
func sentenceAround(text string, i int) string {
	start := strings.LastIndex(text[:i], ". ")
	if p := strings.LastIndex(text[:i], "\n\n"); p > start {
		start = p
	}
	start++
	end := strings.Index(text[i:], ". ")
	if end < 0 {
		end = len(text) - i
	}
	s := strings.Join(strings.Fields(text[start:i+end]), " ")
	if len(s) > 160 {
		s = s[:160]
	}
	return strings.ReplaceAll(s, "\t", " ")
}

// walkNotes lists the notes of a YAML node: where is the endpoint or
// component they belong to, field the last property or parameter named
// on the way.
func walkNotes(n *yaml.Node, where, field string, out *[]featureNote) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			walkNotes(c, where, field, out)
		}
	case yaml.MappingNode:
		// A parameter is named by its name key.
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "name" && n.Content[i+1].Kind == yaml.ScalarNode {
				if _, isParam := mapValue(n, "in"); isParam {
					field = "?" + n.Content[i+1].Value
				}
			}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			switch {
			case where == "paths":
				walkNotes(v, k, "", out)
			case strings.HasPrefix(where, "/"):
				walkNotes(v, strings.ToUpper(k)+" "+where, "", out)
			case where == "components":
				walkNotes(v, "components "+k, "", out)
			case where == "components schemas":
				w, f := componentWhere(k)
				walkNotes(v, w, f, out)
			case where == "components parameters" || where == "components responses":
				walkNotes(v, strings.TrimSuffix(strings.TrimPrefix(where, "components "), "s")+" "+k, "", out)
			case k == "responses" && v.Kind == yaml.MappingNode && strings.Contains(where, " /"):
				for j := 0; j+1 < len(v.Content); j += 2 {
					walkNotes(v.Content[j+1], where, "response "+v.Content[j].Value, out)
				}
			case k == "properties" && v.Kind == yaml.MappingNode && field == "?":
				for j := 0; j+1 < len(v.Content); j += 2 {
					walkNotes(v.Content[j+1], where, "?"+v.Content[j].Value, out)
				}
			case k == "properties" && v.Kind == yaml.MappingNode:
				for j := 0; j+1 < len(v.Content); j += 2 {
					walkNotes(v.Content[j+1], where, v.Content[j].Value, out)
				}
			case v.Kind == yaml.ScalarNode:
				if k == "example" || k == "examples" || k == "value" {
					continue
				}
				*out = append(*out, notesFrom(v.Value, where, field)...)
			default:
				if k == "example" || k == "examples" {
					continue
				}
				walkNotes(v, where, field, out)
			}
		}
	case yaml.ScalarNode:
		*out = append(*out, notesFrom(n.Value, where, field)...)
	}
}

// operations maps Zulip's operation IDs, as its bundled description
// spells them in component names (get_events), to their endpoints.
var operations map[string]string

// componentWhere names a component schema: a request body's fields are
// parameters of its operation ("?" field), a success response's fields
// its operation's; other components are named by themselves.
func componentWhere(name string) (where, field string) {
	if op, ok := strings.CutSuffix(name, "_request"); ok && operations[op] != "" {
		return operations[op], "?"
	}
	if op, ok := strings.CutSuffix(name, "_200_response"); ok && operations[op] != "" {
		return operations[op], ""
	}
	const eventPrefix = "get_events_200_response_allOf_events_inner_oneOf_"
	if rest, ok := strings.CutPrefix(name, eventPrefix); ok {
		n, suffix, _ := strings.Cut(rest, "_")
		if ev := events[n]; ev != "" {
			if suffix != "" {
				return ev + " " + suffix, ""
			}
			return ev, ""
		}
	}
	return "schema " + name, ""
}

// events names the event schemas of the bundled description by their
// oneOf index: "event type op".
var events map[string]string

// collectEvents fills events from the component schemas.
func collectEvents(schemas *yaml.Node) {
	events = map[string]string{}
	const eventPrefix = "get_events_200_response_allOf_events_inner_oneOf_"
	for i := 0; i+1 < len(schemas.Content); i += 2 {
		n, ok := strings.CutPrefix(schemas.Content[i].Value, eventPrefix)
		if !ok || strings.Contains(n, "_") {
			continue
		}
		name := "event"
		for _, key := range []string{"type", "op"} {
			if props, ok := mapValue(schemas.Content[i+1], "properties"); ok {
				if p, ok := mapValue(props, key); ok {
					if v := firstEnum(p); v != "" {
						name += " " + v
					}
				}
			}
		}
		events[n] = name
	}
}

// collectOperations fills operations from the description's paths.
func collectOperations(paths *yaml.Node) {
	operations = map[string]string{}
	for i := 0; i+1 < len(paths.Content); i += 2 {
		path, item := paths.Content[i].Value, paths.Content[i+1]
		for j := 0; j+1 < len(item.Content); j += 2 {
			if id, ok := mapValue(item.Content[j+1], "operationId"); ok {
				operations[strings.ReplaceAll(id.Value, "-", "_")] = strings.ToUpper(item.Content[j].Value) + " " + path
			}
		}
	}
}

// firstEnum is the first enum value below n.
func firstEnum(n *yaml.Node) string {
	if n.Kind == yaml.MappingNode {
		if enum, ok := mapValue(n, "enum"); ok && len(enum.Content) > 0 {
			return enum.Content[0].Value
		}
	}
	for _, c := range n.Content {
		if v := firstEnum(c); v != "" {
			return v
		}
	}
	return ""
}

func mapValue(n *yaml.Node, key string) (*yaml.Node, bool) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1], true
		}
	}
	return nil, false
}

// documentedNotes reads the notes of the description and the spec; it
// skips the test when they are not beside the repository.
func documentedNotes(t *testing.T) []featureNote {
	t.Helper()
	data, err := os.ReadFile(openAPIDescription)
	if err != nil {
		t.Skipf("Zulip's API description is not available: %v", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var notes []featureNote
	root := doc.Content[0]
	if paths, ok := mapValue(root, "paths"); ok {
		collectOperations(paths)
	}
	if comps, ok := mapValue(root, "components"); ok {
		if schemas, ok := mapValue(comps, "schemas"); ok {
			collectEvents(schemas)
		}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch k := root.Content[i].Value; k {
		case "paths", "components":
			walkNotes(root.Content[i+1], k, "", &notes)
		default:
			walkNotes(root.Content[i+1], k, "", &notes)
		}
	}
	spec, err := os.ReadFile(specDocument)
	if err != nil {
		t.Skipf("the spec is not available: %v", err)
	}
	for _, line := range strings.Split(string(spec), "\n") {
		notes = append(notes, notesFrom(line, "spec", "")...)
	}
	return notes
}

// Every note of the description and the spec from feature level 185 on
// has a row in the table of changes. A failure prints the missing rows
// as draft lines of feature_changes.tsv.
func TestEveryDocumentedChangeHasARow(t *testing.T) {
	notes := documentedNotes(t)
	if len(notes) < 600 {
		t.Fatalf("only %d notes found: the walk misses the description's shape", len(notes))
	}
	have := map[string]bool{}
	for _, c := range featureChanges {
		have[c.key()] = true
	}
	var missing []string
	seen := map[string]bool{}
	for _, n := range notes {
		c := FeatureChange{Level: n.level, Where: n.where, Field: n.field}
		if have[c.key()] || seen[c.key()] {
			continue
		}
		seen[c.key()] = true
		missing = append(missing, fmt.Sprintf("%d\t%s\t%s\t%s\t%s", n.level, guessKind(n), n.where, n.field, n.text))
	}
	sort.Strings(missing)
	noted := map[string]bool{}
	for _, n := range notes {
		noted[FeatureChange{Level: n.level, Where: n.where, Field: n.field}.key()] = true
	}
	for _, c := range featureChanges {
		if c.Level >= firstTabledLevel && !noted[c.key()] && !strings.HasPrefix(c.Note, "Not noted") {
			t.Errorf("row %q answers no note (a row for a change the description does not note says \"Not noted\")", c.key())
		}
	}
	if len(missing) > 0 {
		if out := os.Getenv("MINIZULIP_DRAFT_ROWS"); out != "" {
			_ = os.WriteFile(out, []byte(strings.Join(missing, "\n")+"\n"), 0o644)
		}
		t.Errorf("%d documented changes have no row in feature_changes.tsv, e.g.:\n%s", len(missing), strings.Join(missing[:min(20, len(missing))], "\n"))
	}
}

// guessKind drafts a row's kind from its note.
func guessKind(n featureNote) string {
	s := strings.ToLower(n.text)
	switch {
	case strings.Contains(s, "deprecated in") && !n.newIn:
		return kindBehaviour
	case strings.Contains(s, "renamed") || strings.Contains(s, "previously named") || strings.Contains(s, "previously called") || strings.Contains(s, "replaced") || strings.Contains(s, "replacing"):
		if n.field == "" {
			return kindBehaviour
		}
		return kindFieldRenamed
	case n.newIn:
		switch {
		case n.field == "" && strings.Contains("GET POST PUT PATCH DELETE", strings.Fields(n.where)[0]):
			return kindEndpointAdded
		case n.field == "" && strings.HasPrefix(n.where, "event "):
			return kindEventAdded
		case strings.HasPrefix(n.field, "?"):
			return kindParamAdded
		default:
			return kindFieldAdded
		}
	case strings.Contains(s, "removed"):
		if n.field == "" {
			return kindBehaviour
		}
		return kindFieldRemoved
	case strings.Contains(s, "default"):
		return kindDefaultChanged
	case strings.Contains(s, "added"):
		if strings.HasPrefix(n.field, "?") {
			return kindParamAdded
		}
		return kindValueChanged
	}
	return kindBehaviour
}

// Every row of the table is well formed: a known kind and status, a
// reason or mechanism, and no two rows for one note.
func TestFeatureChangeRowsAreWellFormed(t *testing.T) {
	kinds := map[string]bool{kindEndpointAdded: true, kindEndpointRemoved: true, kindParamAdded: true, kindFieldAdded: true,
		kindFieldRemoved: true, kindFieldRenamed: true, kindValueChanged: true, kindDefaultChanged: true, kindEventAdded: true, kindBehaviour: true}
	seen := map[string]bool{}
	for _, c := range featureChanges {
		if !kinds[c.Kind] {
			t.Errorf("%s: unknown kind %q", c.key(), c.Kind)
		}
		switch c.Status {
		case StatusHonoured, StatusNoEffect, StatusTodo:
		default:
			t.Errorf("%s: unknown status %q", c.key(), c.Status)
		}
		if c.Honour == "" || (c.Status != StatusTodo && c.Honour == "-") {
			t.Errorf("%s: %s without saying how", c.key(), c.Status)
		}
		if seen[c.key()] {
			t.Errorf("%s: two rows", c.key())
		}
		seen[c.key()] = true
	}
}
