import { useState, type FormEvent, type ReactNode } from 'react';
import { Form } from 'react-aria-components';
import type { ApiProblem } from '../lib/api-problem';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { FormProblem } from './status';

/** What a settings list shows and edits: anything with an id and a name. */
export interface SettingsItem {
  id: string;
  name: string;
}

/** A draft in the form: `id` null for a new item, else the item being edited. */
export interface SettingsDraft {
  id: string | null;
}

/** The answer of a mutation, as far as the list needs it: data when it succeeded. */
interface Outcome {
  data?: unknown;
}

/**
 * The state of a settings list (project segments, custom extractors): the form's draft, whether it was submitted
 * (a problem shows only then), the last status message and the item whose deletion awaits confirmation.
 */
export function useSettingsList<T extends SettingsItem, D extends SettingsDraft>(empty: D, toDraft: (item: T) => D) {
  const [draft, setDraft] = useState<D>(empty);
  const [submitted, setSubmitted] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);

  return {
    draft,
    submitted,
    message,
    deleting,
    setDeleting,
    change: (patch: Partial<D>) => setDraft((d) => ({ ...d, ...patch })),
    edit: (item: T) => {
      setSubmitted(false);
      setMessage(null);
      setDraft(toDraft(item));
    },
    cancel: () => setDraft(empty),
    /** Runs the save; on success shows `saved` and empties the form, else leaves the draft and its problem. */
    async save(run: () => Promise<Outcome>, saved: string) {
      setSubmitted(true);
      setMessage(null);
      const res = await run();
      if (res.data) {
        setMessage(saved);
        setDraft(empty);
        setSubmitted(false);
      }
    },
    /** Runs the confirmed deletion; on success shows `deleted`. The dialog closes either way. */
    async remove(run: (item: T) => Promise<Outcome>, deleted: (item: T) => string) {
      if (!deleting) return;
      const res = await run(deleting);
      if (res.data) setMessage(deleted(deleting));
      setDeleting(null);
    },
  };
}

export type SettingsListState<T extends SettingsItem, D extends SettingsDraft> = ReturnType<
  typeof useSettingsList<T, D>
>;

/** A column of the list; the first one heads its row. */
export interface SettingsColumn<T> {
  header: string;
  cell(item: T): ReactNode;
  className?: string;
}

/**
 * A project setting made of named items (segments, extractors): a card with its heading and note, the items as a
 * table with Edit and Delete on each row, the form that adds an item or edits one ("New …" / "Edit … "name""), a
 * status line for what was saved or deleted, and a confirmation before a deletion.
 */
export function SettingsList<T extends SettingsItem, D extends SettingsDraft>({
  list,
  items,
  noun,
  title,
  titleId,
  intro,
  caption,
  columns,
  aboveForm,
  problem,
  isSaving,
  onSubmit,
  isDeleting,
  onDelete,
  deleteNote,
  children,
}: {
  list: SettingsListState<T, D>;
  items: readonly T[];
  /** What one item is called, in lower case: "segment", "extractor". */
  noun: string;
  title: string;
  titleId: string;
  intro: ReactNode;
  /** The table's caption, for screen readers. */
  caption: string;
  columns: readonly SettingsColumn<T>[];
  /** What stands between the form's heading and the form (a filter builder). */
  aboveForm?: ReactNode;
  problem: ApiProblem | null;
  isSaving: boolean;
  onSubmit(): Promise<void>;
  isDeleting: boolean;
  /** Deletes the item (after the confirmation). */
  onDelete(item: T): Promise<Outcome>;
  /** What the confirmation says a deletion does. */
  deleteNote: ReactNode;
  /** The form's fields. */
  children: ReactNode;
}) {
  const { draft, message, deleting } = list;
  const capital = noun.charAt(0).toUpperCase() + noun.slice(1);
  const status = message ? (
    <p className="small" role="status">
      {message}
    </p>
  ) : null;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void onSubmit();
  };

  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <p className="muted small">{intro}</p>
      <ItemTable<T>
        items={items}
        noun={noun}
        caption={caption}
        columns={columns}
        onEdit={list.edit}
        onDelete={list.setDeleting}
      />

      <h3>{draft.id ? `Edit ${noun} "${items.find((i) => i.id === draft.id)?.name ?? ''}"` : `New ${noun}`}</h3>
      {aboveForm}
      <Form className="form" onSubmit={submit} validationBehavior="aria" aria-label={capital}>
        <FormProblem problem={problem} />
        {children}
        <div className="form-actions">
          <Button type="submit" variant="primary" isPending={isSaving}>
            {draft.id ? `Save ${noun}` : `Add ${noun}`}
          </Button>
          {draft.id && <Button onPress={list.cancel}>Cancel editing</Button>}
        </div>
        {status}
      </Form>
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => !open && list.setDeleting(null)}
        title={`Delete ${noun} "${deleting?.name ?? ''}"?`}
        confirmLabel={`Delete ${noun}`}
        onConfirm={() => void list.remove(onDelete, (item) => `Deleted ${noun} "${item.name}".`)}
        isPending={isDeleting}
      >
        {deleteNote}
      </ConfirmDialog>
    </section>
  );
}

/** The items with their columns, each row with Edit and Delete ("No segments yet." when there is none). */
function ItemTable<T extends SettingsItem>({
  items,
  noun,
  caption,
  columns,
  onEdit,
  onDelete,
}: {
  items: readonly T[];
  noun: string;
  caption: string;
  columns: readonly SettingsColumn<T>[];
  onEdit(item: T): void;
  onDelete(item: T): void;
}) {
  if (!items.length) return <p className="muted">No {noun}s yet.</p>;
  // The last column, the row's buttons, has a header for screen readers only.
  const headerCells = [...columns.map((c) => c.header), null].map((header) => (
    <th scope="col" key={header ?? ''}>
      {header ?? <span className="visually-hidden">Actions</span>}
    </th>
  ));
  return (
    <table className="table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>{headerCells}</tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id}>
            {columns.map((c, i) => {
              const Cell = i === 0 ? 'th' : 'td';
              return (
                <Cell key={c.header} scope={i === 0 ? 'row' : undefined} className={c.className}>
                  {c.cell(item)}
                </Cell>
              );
            })}
            <RowActions name={`${noun} ${item.name}`} onEdit={() => onEdit(item)} onDelete={() => onDelete(item)} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A row's Edit and Delete buttons, each named after the row's item for screen readers ("Edit segment Blog"). */
function RowActions({ name, onEdit, onDelete }: { name: string; onEdit(): void; onDelete(): void }) {
  return (
    <td>
      <Button variant="quiet" onPress={onEdit} aria-label={`Edit ${name}`}>
        Edit
      </Button>
      <Button variant="danger" onPress={onDelete} aria-label={`Delete ${name}`}>
        Delete
      </Button>
    </td>
  );
}
