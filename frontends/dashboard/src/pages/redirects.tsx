// The small forwarding routes: each sends the browser on to the page that shows it.
import { useEffect } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router-dom';

/** /dip/view/{shareSlug}: a full-page redirect to /shared/{shareSlug} (the query goes along). */
export function DipViewRedirect() {
  const { slug = '' } = useParams();
  useEffect(() => {
    window.location.replace(`/shared/${encodeURIComponent(slug)}${window.location.search}`);
  }, [slug]);
  return null;
}

/** /shared-with-me?highlightDip={id} and /shared without a slug: the dashboard's shared tab. */
export function SharedWithMeRedirect() {
  const [params] = useSearchParams();
  const target = new URLSearchParams({ tab: 'shared' });
  const highlight = params.get('highlightDip');
  if (highlight) target.set('highlightDip', highlight);
  return <Navigate to={`/dashboard?${target.toString()}`} replace />;
}

/**
 * /refer (not a spec route; the shell sends it here): the dashboard with Refer a Friend open, rather
 * than this remote's 404.
 */
export function ReferRedirect() {
  return <Navigate to="/dashboard?refer=1" replace />;
}

/** /share/dip/{shareId}: the spec does not show its behaviour; it opens Shared with me. */
export function ShareLandingRedirect() {
  return <Navigate to="/dashboard?tab=shared" replace />;
}
