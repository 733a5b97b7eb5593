package httpapi

func (s *Server) messageRoutes() []route {
	return []route{}
}
