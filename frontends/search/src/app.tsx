// The search remote's whole route tree. The shell owns the router, the session, the query client
// and the toasts; this component only renders the search area's routes inside them.
import { NotFoundPage } from '@lsp/ui';
import { Route, Routes } from 'react-router-dom';
import { ApplicationPage } from './application/application-page';
import { HomePage } from './home/home-page';
import { LoanResultsPage } from './results/loan-results-page';
import { ResultsGatePage } from './leads/results-gate-page';
import { SearchResultPage } from './saved-searches/search-result-page';
import './search.css';

export default function App() {
  return (
    <Routes>
      <Route path="/" element={<HomePage />} />
      <Route path="/results-gate" element={<ResultsGatePage />} />
      <Route path="/loan-results" element={<LoanResultsPage />} />
      <Route path="/search-results/:id" element={<SearchResultPage />} />
      <Route path="/application" element={<ApplicationPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
