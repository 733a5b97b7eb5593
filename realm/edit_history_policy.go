package realm

// The values of the realm's message_edit_history_visibility_policy
// (feature level 358 on): who may see what of a message's edit history.
const (
	EditHistoryAll   = "all"
	EditHistoryMoves = "moves"
	EditHistoryNone  = "none"
)

// editHistoryPolicyProperty is the policy's API name (its event
// property, PATCH /realm parameter and, prefixed with realm_, register
// key).
const editHistoryPolicyProperty = "message_edit_history_visibility_policy"

// editHistoryPolicyNumbers are Zulip's stored values of the policy, which
// PATCH /realm answers with.
var editHistoryPolicyNumbers = map[string]int{EditHistoryAll: 1, EditHistoryMoves: 2, EditHistoryNone: 3}

// validEditHistoryPolicy reports whether p names a policy.
func validEditHistoryPolicy(p string) bool {
	_, ok := editHistoryPolicyNumbers[p]
	return ok
}

// allowEditHistory is the policy as the allow_edit_history boolean, the
// setting it replaced at 358 (and register's deprecated
// realm_allow_edit_history from then on): false only for "none".
func allowEditHistory(p string) bool { return p != EditHistoryNone }

// editHistoryPolicyOf is the policy a value of allow_edit_history sets,
// as Zulip's migration mapped them: true "all", false "none".
func editHistoryPolicyOf(allow bool) string {
	if allow {
		return EditHistoryAll
	}
	return EditHistoryNone
}

// visibleHistory is a message's history (GET /messages/{id}/history,
// oldest first) as the policy shows it: under "moves", the versions made
// by content edits alone are left out and the others lose their content
// diffs (Zulip's visible_edit_history_for_message); "none" is refused
// before.
func visibleHistory(policy string, versions []MessageSnapshot) []MessageSnapshot {
	if policy != EditHistoryMoves {
		return versions
	}
	out := versions[:0:0]
	for i, v := range versions {
		if i > 0 && v.PrevContent != nil {
			if v.PrevTopic == nil && v.PrevStream == 0 {
				continue
			}
			v.PrevContent, v.PrevRenderedContent, v.ContentHTMLDiff = nil, nil, nil
		}
		out = append(out, v)
	}
	return out
}
