// The async boundary: shared singletons are negotiated before anything else runs.
import('./bootstrap.js');
