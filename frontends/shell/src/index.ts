// The async boundary: shared singletons (React, the router, @lsp/ui) are negotiated with the
// remotes before any of them is evaluated.
import('./bootstrap.js');
