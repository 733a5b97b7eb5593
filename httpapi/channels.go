package httpapi

func (s *Server) channelRoutes() []route {
	return []route{}
}
