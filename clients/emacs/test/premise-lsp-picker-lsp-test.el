;;; premise-lsp-picker-lsp-test.el --- ERT tests of premise-lsp-pick under lsp-mode  -*- lexical-binding: t; -*-

;; Run by test/clients/emacs-lsp-mode.test.ts, with the environment of
;; premise-lsp-lsp-test.el (whose stand-ins and helpers it loads):
;;   emacs --batch -l ert -l clients/emacs/test/premise-lsp-picker-lsp-test.el \
;;     --eval '(ert-run-tests-batch-and-exit "premise-lsp-picker-")'

;;; Code:

(require 'ert)
(require 'cl-lib)
(load (expand-file-name "premise-lsp-lsp-test.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)
(require 'premise-lsp-picker)
(require 'premise-lsp-picker-test-common)

(ert-deftest premise-lsp-picker-lsp-test-pick ()
  "Under lsp-mode (premise-lsp as an add-on beside lean4-mode's server): a stale
search is cancelled with $/cancelRequest and dropped; RET inserts the name."
  (skip-unless premise-lsp-test--index-server)
  (unwind-protect
      (let ((premise-lsp-test--server premise-lsp-test--index-server)
            (premise-lsp-picker-backend 'completing-read)
            (premise-lsp-picker-input-method nil))
        (premise-lsp-lsp-add-on-mode 1)
        (premise-lsp-test--with-buffer ("Complete.lean" lean4-mode ("lean4-lsp" "premise-lsp"))
          (let ((s (premise-lsp-picker-session)) notes first-called second)
            (cl-flet ((record (method params)
                        (when (equal method "$/cancelRequest") (push (plist-get params :id) notes))))
              (advice-add 'lsp-notify :before #'record)
              (unwind-protect
                  (progn
                    (premise-lsp-picker-search s "length of a list append" (lambda (&rest _) (setq first-called t)))
                    (premise-lsp-picker-search s "triangle inequality" (lambda (h &rest _) (setq second h)))
                    (premise-lsp-picker-test--wait (lambda () second) "the second search")
                    (let ((t0 (float-time))) (while (< (- (float-time) t0) 0.3) (accept-process-output nil 0.02)))
                    (premise-lsp-test--observe "picker_lsp_cancel_notes" (vconcat notes))
                    (should (= (length notes) 1))
                    (should-not first-called)
                    (should (equal (plist-get (car second) :name) "Sample.Order.abs_add_le")))
                (advice-remove 'lsp-notify #'record)
                (premise-lsp-picker-close s))))
          (premise-lsp-test--goto "exact " t)
          (premise-lsp-picker-test--type "C-c p triangle SPC inequality RET")
          (premise-lsp-test--observe "picker_lsp_enter_line" (premise-lsp-test--line))
          (should (equal (premise-lsp-test--line) "  exact Sample.Order.abs_add_le"))))
    (premise-lsp-lsp-add-on-mode -1)))

(provide 'premise-lsp-picker-lsp-test)
;;; premise-lsp-picker-lsp-test.el ends here
