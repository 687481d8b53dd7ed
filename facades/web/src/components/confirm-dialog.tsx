import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './button';

export interface ConfirmDialogProps {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The button that closes the dialog without doing anything (default "Cancel"). */
  cancelLabel?: string;
  onConfirm(): void;
  isPending?: boolean;
  tone?: 'danger' | 'primary';
}

/** An alert dialog that traps focus, closes on Escape and returns focus to what opened it. */
export function ConfirmDialog({
  isOpen,
  onOpenChange,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  isPending,
  tone = 'danger',
}: ConfirmDialogProps) {
  return (
    <ModalOverlay className="modal-overlay" isOpen={isOpen} onOpenChange={onOpenChange} isDismissable={!isPending}>
      <Modal className="modal">
        <Dialog role="alertdialog" className="dialog">
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          <div className="dialog-body">{children}</div>
          <div className="dialog-actions">
            <Button onPress={() => onOpenChange(false)} isDisabled={isPending}>
              {cancelLabel}
            </Button>
            <Button variant={tone} onPress={onConfirm} isPending={isPending}>
              {confirmLabel}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** A modal dialog around a form or a message. */
export function FormDialog({
  isOpen,
  onOpenChange,
  title,
  children,
  isDismissable = true,
}: {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  children: ReactNode;
  isDismissable?: boolean;
}) {
  return (
    <ModalOverlay className="modal-overlay" isOpen={isOpen} onOpenChange={onOpenChange} isDismissable={isDismissable}>
      <Modal className="modal">
        <Dialog className="dialog">
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          {children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
