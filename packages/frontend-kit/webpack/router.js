// What the apps may use from the router, shared as one instance under the name 'react-router-dom'.
// A shared module is never tree-shaken (the host cannot know what remotes will use), so sharing the
// whole of react-router would put all of it (data routers, server rendering) into the first visit;
// this list keeps the declarative-routing part only. Import routing from 'react-router-dom' alone.
export {
  BrowserRouter,
  MemoryRouter,
  Link,
  NavLink,
  Navigate,
  Outlet,
  Route,
  Routes,
  createSearchParams,
  generatePath,
  matchPath,
  useHref,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate,
  useNavigationType,
  useOutletContext,
  useParams,
  useResolvedPath,
  useRoutes,
  useSearchParams,
} from 'react-router';
