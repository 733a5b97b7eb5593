package httpapi

import (
	"net/url"
	"testing"

	"github.com/minizulip/minizulip/upload"
)

// POST /minizulip/plan_type moves the realm to a plan: register says it
// and its limits, uploads obey them, and a missing or unknown plan is
// refused with nothing changed.
func TestControlPlanType(t *testing.T) {
	e := newCtlEnv(t)
	const hamlet = "hamlet@zulip.com"
	big := make([]byte, 11*upload.MiB)
	e.ok(e.upload(hamlet, filePart{field: "file", name: "big.bin", contentType: "application/octet-stream", data: big}))
	e.ok(e.ctl("POST", "/minizulip/plan_type", url.Values{"plan_type": {"2"}}))
	reg := e.realmSection(hamlet)
	if reg["realm_plan_type"] != float64(2) || reg["max_file_upload_size_mib"] != float64(10) || reg["realm_upload_quota_mib"] != float64(5120) ||
		reg["realm_enable_spectator_access"] != false {
		t.Errorf("register on the Free plan: plan %v max %v quota %v spectators %v", reg["realm_plan_type"], reg["max_file_upload_size_mib"],
			reg["realm_upload_quota_mib"], reg["realm_enable_spectator_access"])
	}
	st, body := e.upload(hamlet, filePart{field: "file", name: "big.bin", contentType: "application/octet-stream", data: big})
	e.fail(st, body, 400, "BAD_REQUEST", "Uploaded file is larger than the allowed limit of 10 MiB")

	st, body = e.ctl("POST", "/minizulip/plan_type", nil)
	e.fail(st, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'plan_type' argument")
	st, body = e.ctl("POST", "/minizulip/plan_type", url.Values{"plan_type": {"cloud"}})
	e.fail(st, body, 400, "BAD_REQUEST", "plan_type is not an integer")
	st, body = e.ctl("POST", "/minizulip/plan_type", url.Values{"plan_type": {"7"}})
	e.fail(st, body, 400, "BAD_REQUEST", "Invalid plan_type: 7 (1 self-hosted, 2 limited, 3 standard, 4 standard free, 10 plus)")
	if reg := e.realmSection(hamlet); reg["realm_plan_type"] != float64(2) {
		t.Errorf("a refused plan changed it: %v", reg["realm_plan_type"])
	}
	e.ok(e.ctl("POST", "/minizulip/plan_type", url.Values{"plan_type": {"1"}}))
	if reg := e.realmSection(hamlet); reg["realm_plan_type"] != float64(1) || reg["realm_upload_quota_mib"] != nil || reg["max_file_upload_size_mib"] != float64(25) {
		t.Errorf("back to self-hosted: %v %v %v", reg["realm_plan_type"], reg["realm_upload_quota_mib"], reg["max_file_upload_size_mib"])
	}
}
