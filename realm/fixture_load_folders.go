package realm
