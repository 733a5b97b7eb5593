package httpapi

func (s *Server) userRoutes() []route {
	return []route{}
}
