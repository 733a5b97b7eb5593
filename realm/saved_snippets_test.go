package realm

import (
	"strings"
	"testing"
)

func TestSavedSnippets(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"saved_snippets"}})
	other := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"saved_snippets"}})
	a := r.As(idHamlet)
	id, err := a.CreateSavedSnippet(bg, " Greeting ", "Hello **there**")
	if err != nil {
		t.Fatal(err)
	}
	list, _ := a.SavedSnippets(bg)
	if len(list) != 1 || list[0].ID != id || list[0].Title != "Greeting" || list[0].DateCreated == 0 {
		t.Fatalf("list %+v", list)
	}
	newTitle := "Hi"
	if err := a.UpdateSavedSnippet(bg, id, &newTitle, nil); err != nil {
		t.Fatal(err)
	}
	if list, _ := a.SavedSnippets(bg); list[0].Title != "Hi" || list[0].Content != "Hello **there**" {
		t.Fatalf("after title update %+v", list)
	}
	// Another user's snippet does not exist for them.
	re := wantCode(t, r.As(idIago).UpdateSavedSnippet(bg, id, &newTitle, nil), CodeBadRequest, "Saved snippet does not exist.")
	if re.Status != 404 {
		t.Fatalf("status %d", re.Status)
	}
	wantCode(t, r.As(idIago).DeleteSavedSnippet(bg, id), CodeBadRequest, "Saved snippet does not exist.")
	wantCode(t, a.UpdateSavedSnippet(bg, 999, &newTitle, nil), CodeBadRequest, "Saved snippet does not exist.")
	wantCode(t, a.UpdateSavedSnippet(bg, id, nil, nil), CodeBadRequest, "Nothing to update.")
	empty, long := "  ", strings.Repeat("t", 61)
	wantCode(t, a.UpdateSavedSnippet(bg, id, &empty, nil), CodeBadRequest, "Title cannot be empty.")
	wantCode(t, a.UpdateSavedSnippet(bg, id, &long, nil), CodeBadRequest, "title is too long (limit: 60 characters)")
	wantCode(t, a.UpdateSavedSnippet(bg, id, nil, &empty), CodeBadRequest, "Content cannot be empty.")
	_, err = a.CreateSavedSnippet(bg, "x", strings.Repeat("c", 10001))
	wantCode(t, err, CodeBadRequest, "content is too long")
	if list, _ := a.SavedSnippets(bg); len(list) != 1 || list[0].Title != "Hi" {
		t.Fatalf("rejected changes altered snippets: %+v", list)
	}
	if err := a.DeleteSavedSnippet(bg, id); err != nil {
		t.Fatal(err)
	}
	evs := pending(t, r, idHamlet, q, -1)
	ops := []string{}
	for _, ev := range evs {
		ops = append(ops, ev.Payload.(SavedSnippetEvent).Op)
	}
	if strings.Join(ops, ",") != "add,update,remove" {
		t.Fatalf("events %v", ops)
	}
	if j := eventJSON(t, evs[2]); j["saved_snippet_id"] != float64(id) || j["saved_snippet"] != nil {
		t.Fatalf("remove event %v", j)
	}
	if evs := pending(t, r, idIago, other, -1); len(evs) != 0 {
		t.Fatal("snippet events go to the owner only")
	}
	state, _ := a.Register(bg, RegisterRequest{FetchEventTypes: []string{"saved_snippets"}})
	if len(state.SavedSnippets) != 0 {
		t.Fatal("register state")
	}
}
