// The saved search a page's offers came from. Pages that know it (the home page after a signed-in
// search, /search-results/{id}) provide it, so Continue Application can tie the application to it
// and the dashboard then shows the search's 'Application Submitted' badge.
import { createContext, useContext } from 'react';

export const SavedSearchIdContext = createContext<string | undefined>(undefined);

export const useSavedSearchId = () => useContext(SavedSearchIdContext);
