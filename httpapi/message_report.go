package httpapi

func messageReportRoutes() []route {
	return []route{
		{method: "POST", path: "/messages/{message_id}/report", h: reportMessage},
	}
}

// reportMessage is POST /messages/{message_id}/report: report_type
// required, description optional (required for "other").
func reportMessage(c *call) (any, error) {
	id, err := c.pathInt("message_id")
	if err != nil {
		return nil, err
	}
	reportType, err := c.p.mustStr("report_type")
	if err != nil {
		return nil, err
	}
	description, _ := c.p.str("description")
	return nil, c.actor.ReportMessage(c.ctx(), int64(id), reportType, description)
}
