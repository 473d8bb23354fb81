module runcaar

go 1.22
