package message

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Term is one narrow term of GET /messages: an operator, its operand, and
// whether it is negated. Operand holds the text form; OperandIDs holds a
// list of user IDs when the operand was a JSON list.
type Term struct {
	Operator   string
	Operand    string
	OperandIDs []int
	// OperandIsList is true when the operand was a JSON list.
	OperandIsList bool
	Negated       bool
}

// operatorAliases maps legacy and alternative operator names to the
// canonical one.
var operatorAliases = map[string]string{
	"stream":        "channel",
	"streams":       "channels",
	"subject":       "topic",
	"pm-with":       "dm",
	"pm_with":       "dm",
	"group-pm-with": "group-pm-with",
	"group_pm_with": "group-pm-with",
	"dm-including":  "dm-including",
}

// CanonicalOperator returns the canonical name of a narrow operator.
func CanonicalOperator(op string) string {
	if c, ok := operatorAliases[op]; ok {
		return c
	}
	return op
}

// NarrowError explains why a narrow could not be read.
type NarrowError string

func (e NarrowError) Error() string { return string(e) }

// ParseNarrow reads the JSON `narrow` parameter: a list of objects
// {"operator","operand","negated"?} or of legacy [operator, operand] pairs.
// Operands may be strings, integers or lists of integers.
func ParseNarrow(raw string) ([]Term, error) {
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &items); err != nil {
		return nil, NarrowError("narrow is not a list")
	}
	terms := make([]Term, 0, len(items))
	for _, item := range items {
		var t Term
		var operand json.RawMessage
		var obj struct {
			Operator *string         `json:"operator"`
			Operand  json.RawMessage `json:"operand"`
			Negated  bool            `json:"negated"`
		}
		var pair []json.RawMessage
		switch {
		case json.Unmarshal(item, &obj) == nil && obj.Operator != nil && obj.Operand != nil:
			t.Operator, t.Negated, operand = *obj.Operator, obj.Negated, obj.Operand
		case json.Unmarshal(item, &pair) == nil && len(pair) == 2:
			if json.Unmarshal(pair[0], &t.Operator) != nil {
				return nil, NarrowError("element is not a string pair")
			}
			operand = pair[1]
		default:
			return nil, NarrowError("element is not a dict or pair")
		}
		if err := readOperand(operand, &t); err != nil {
			return nil, err
		}
		t.Operator = CanonicalOperator(t.Operator)
		terms = append(terms, t)
	}
	return terms, nil
}

func readOperand(raw json.RawMessage, t *Term) error {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		t.Operand = s
		return nil
	}
	var n int64
	if json.Unmarshal(raw, &n) == nil {
		t.Operand = strconv.FormatInt(n, 10)
		return nil
	}
	var ids []int
	if json.Unmarshal(raw, &ids) == nil {
		t.OperandIDs, t.OperandIsList = ids, true
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = strconv.Itoa(id)
		}
		t.Operand = strings.Join(parts, ",")
		return nil
	}
	return NarrowError("operand is not a string, integer or list of integers")
}
