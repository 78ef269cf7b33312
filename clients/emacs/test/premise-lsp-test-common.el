;;; premise-lsp-test-common.el --- helpers shared by the ERT suites  -*- lexical-binding: t; -*-

;; Loaded by premise-lsp-test.el (eglot) and premise-lsp-lsp-test.el (lsp-mode).
;; Settings come from the environment (JSON arrays for commands); what the
;; editor did is written to PREMISE_LSP_TEST_OUT as JSON when Emacs exits.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'subr-x)

(defun premise-lsp-test--json-env (name)
  "The JSON array in environment variable NAME as a list, or nil."
  (let ((s (getenv name)))
    (and s (not (string-empty-p s)) (append (json-parse-string s :array-type 'list) nil))))

(defvar premise-lsp-test--server (premise-lsp-test--json-env "PREMISE_LSP_TEST_SERVER"))
(defvar premise-lsp-test--out (getenv "PREMISE_LSP_TEST_OUT"))
(defvar premise-lsp-test--observed (make-hash-table :test #'equal)
  "What the tests saw, written to PREMISE_LSP_TEST_OUT at exit.")
(defvar premise-lsp-test--client-library "eglot"
  "The LSP client library under test; its location is recorded in the output.")

(defun premise-lsp-test--observe (key value)
  (puthash key value premise-lsp-test--observed))

(defun premise-lsp-test--write ()
  (when premise-lsp-test--out
    (puthash "emacs" emacs-version premise-lsp-test--observed)
    (puthash (string-replace "-" "_" premise-lsp-test--client-library)
             (or (locate-library premise-lsp-test--client-library) "") premise-lsp-test--observed)
    (with-temp-file premise-lsp-test--out
      (insert (json-serialize premise-lsp-test--observed)))))
(add-hook 'kill-emacs-hook #'premise-lsp-test--write)

(defun premise-lsp-test--line ()
  (buffer-substring-no-properties (line-beginning-position) (line-end-position)))

(defun premise-lsp-test--goto (needle &optional at-end-of-line)
  "Put point just after the first NEEDLE (or at the end of its line)."
  (goto-char (point-min))
  (search-forward needle)
  (when at-end-of-line (end-of-line)))

(defmacro premise-lsp-test--choosing-default (prompts &rest body)
  "Run BODY with `completing-read' answering its default; record menus in PROMPTS."
  (declare (indent 1))
  `(cl-letf (((symbol-function 'completing-read)
              (lambda (prompt collection &optional predicate _req _init _hist def &rest _)
                (push (cons prompt (all-completions "" collection predicate)) ,prompts)
                (if (consp def) (car def) def))))
     ,@body))

;; C-u M-x premise-lsp-search from the current buffer (either client): the
;; sample's triangle inequality is picked and its source visited at its
;; declaration, the searched buffer unchanged.
(defun premise-lsp-test--check-search-visit ()
  (let ((searched (current-buffer))
        (before (buffer-string))
        (current-prefix-arg '(4))
        menus visited)
    (unwind-protect
        (progn
          (premise-lsp-test--choosing-default menus
            (cl-letf (((symbol-function 'read-string) (lambda (&rest _) "triangle inequality for absolute values")))
              (should (equal (call-interactively #'premise-lsp-search) "Sample.Order.abs_add_le"))))
          (setq visited (current-buffer))
          (should-not (eq visited searched))
          (premise-lsp-test--observe "visit_file" (buffer-file-name visited))
          (premise-lsp-test--observe "visit_line" (premise-lsp-test--line))
          (should (string-prefix-p "/-- The triangle inequality" (premise-lsp-test--line)))
          (forward-line 1)
          (should (string-prefix-p "theorem abs_add_le " (premise-lsp-test--line)))
          (should (equal (with-current-buffer searched (buffer-string)) before)))
      (when (and visited (not (eq visited searched))) (kill-buffer visited))
      (set-buffer searched))))

;;;; Snippets of the documentation, run as they are written

(defvar premise-lsp-test--project-file (getenv "PREMISE_LSP_TEST_PROJECT_FILE")
  "A .lean file of a small Lake project, for the snippets (the automatic index).")

(defun premise-lsp-test--snippet (name)
  "The text of documentation snippet NAME, from PREMISE_LSP_TEST_SNIPPET_<NAME>."
  (getenv (concat "PREMISE_LSP_TEST_SNIPPET_" (upcase (replace-regexp-in-string "[^[:alnum:]]" "_" name)))))

(defun premise-lsp-test--eval-snippet (text &optional after-setup)
  "Evaluate every form of TEXT, in order, as `load' would.
Returns the directories it added to `load-path', which it sees without the
suite's own clients/emacs entry (premise-lsp.el is already loaded from there,
so these show where the snippet would load it from).  AFTER-SETUP: TEXT
follows a setup snippet, so the package's directory stays on `load-path'."
  (let* ((own (directory-file-name (file-truename (file-name-directory (locate-library "premise-lsp")))))
         (load-path (if after-setup load-path
                      (cl-remove-if (lambda (d) (equal (directory-file-name (file-truename d)) own)) load-path)))
         (before load-path))
    (with-temp-buffer
      (insert text)
      (goto-char (point-min))
      (condition-case nil
          (while t (eval (read (current-buffer)) t))
        (end-of-file nil)))
    (cl-remove-if (lambda (d) (member d before)) load-path)))

(defmacro premise-lsp-test--keeping-hooks (hooks &rest body)
  "Run BODY, then give the hook variables HOOKS back their values."
  (declare (indent 1))
  (let ((saved (make-symbol "saved")))
    `(let ((,saved (mapcar (lambda (h) (cons h (and (boundp h) (default-value h)))) ,hooks)))
       (unwind-protect (progn ,@body)
         (pcase-dolist (`(,h . ,v) ,saved) (set-default h v))))))

(defun premise-lsp-test--wait-until (what pred &optional seconds)
  "Run the event loop until PRED gives non-nil (returned); fail naming WHAT after SECONDS."
  (let ((deadline (+ (float-time) (or seconds 15))) v)
    (while (not (setq v (funcall pred)))
      (when (> (float-time) deadline)
        (ert-fail (format "timed out waiting for %s" what)))
      (accept-process-output nil 0.05))
    v))

(defun premise-lsp-test--wait-for-premise (query name &optional seconds)
  "Search QUERY until NAME is among the results (the automatic index is served); the names."
  (let (last)
    (condition-case err
        (premise-lsp-test--wait-until
         name
         (lambda ()
           (let ((names (mapcar (lambda (h) (plist-get h :name))
                                (append (plist-get (premise-lsp-search-results query) :results) nil))))
             (setq last names)
             (and (member name names) names)))
         (or seconds 90))
      (ert-test-failed (ert-fail (format "%s; last answer: %S" (cadr err) last))))))

(defun premise-lsp-test--messages ()
  "The text of *Messages*."
  (with-current-buffer (messages-buffer) (buffer-substring-no-properties (point-min) (point-max))))

(provide 'premise-lsp-test-common)
;;; premise-lsp-test-common.el ends here
