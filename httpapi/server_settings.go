package httpapi

func (s *Server) serverRoutes() []route {
	return []route{}
}
