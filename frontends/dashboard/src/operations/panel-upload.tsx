// Upload a panel file (JSON Lines: a header line, then one lender per line) as a draft. The file is
// read as text in the browser and posted with its name; a refused file lists each problem with its
// line, a version already stored with other content says so, and a stored draft is handed on.
import { Alert, Button, FieldError } from '@lsp/ui';
import type { PanelVersionSummary } from '@lsp/contracts';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { failureText } from './ops-notices';
import { useUploadDraft } from './panel-api';
import { problemText, problemsOf } from './panel-model';

/** The largest file the server takes (the contract's limit on the content). */
const MAX_FILE_BYTES = 500_000;

/** A refused upload; a server failure (5xx) can be retried as it is. */
type Refusal = { title: string; problems: string[]; retry: boolean };

export function UploadPanelForm({ onDraft }: { onDraft: (draft: PanelVersionSummary) => void }) {
  const inputId = useId();
  const [file, setFile] = useState<{ fileName: string; content: string } | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const upload = useUploadDraft();

  const choose = async (chosen: File | undefined) => {
    setRefusal(null);
    upload.reset();
    setFile(null);
    if (!chosen) return;
    if (chosen.size > MAX_FILE_BYTES) {
      setFieldError('The panel file is larger than 500 KB');
      return;
    }
    try {
      setFile({ fileName: chosen.name, content: await chosen.text() });
      setFieldError(undefined);
    } catch {
      setFieldError('The file could not be read: choose it again');
    }
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setRefusal(null);
    if (!file) {
      setFieldError('Choose a panel file');
      return;
    }
    if (file.content.trim() === '') {
      setFieldError('The panel file is empty');
      return;
    }
    upload.mutate(file, {
      onSuccess: (answer) => {
        if (answer.ok) {
          onDraft(answer.data);
          return;
        }
        const said = answer.data?.error ?? `The upload failed (the server answered ${answer.status})`;
        setRefusal({
          title: said,
          problems: problemsOf(answer.data).map(problemText),
          retry: answer.status >= 500,
        });
      },
    });
  };

  return (
    <form className="panel-form" onSubmit={submit} noValidate>
      <p className="ui-muted">
        A JSON Lines file: the first line is the panel header (its version and effective date), then one
        lender per line. It is checked in full and stored as a draft; nothing changes for borrowers until a
        version is activated.
      </p>
      <div className="ui-field">
        <label htmlFor={inputId} className="ui-label">
          Panel file (.jsonl)
        </label>
        <input
          id={inputId}
          type="file"
          accept=".jsonl,.json,.txt,application/json,text/plain"
          className="ui-input panel-file"
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? `${inputId}-error` : undefined}
          onChange={(event) => void choose(event.target.files?.[0])}
        />
        <FieldError id={`${inputId}-error`}>{fieldError}</FieldError>
      </div>
      <div className="panel-form__actions">
        <Button type="submit" loading={upload.isPending} loadingText="Uploading...">
          Upload as draft
        </Button>
      </div>
      {refusal && (
        <Alert variant="danger" title={refusal.title} live>
          {refusal.problems.length > 0 && (
            <ul className="panel-problems" aria-label="Problems in the file">
              {refusal.problems.map((problem, i) => (
                <li key={i}>{problem}</li>
              ))}
            </ul>
          )}
          {refusal.retry && (
            <Button size="sm" variant="secondary" onClick={() => submit()}>
              Retry
            </Button>
          )}
        </Alert>
      )}
      {upload.isError && (
        <Alert variant="danger" title="Could not upload the file" live className="ops-load-error">
          <p>{failureText(upload.error)}</p>
          <Button size="sm" variant="secondary" onClick={() => submit()}>
            Retry
          </Button>
        </Alert>
      )}
    </form>
  );
}
