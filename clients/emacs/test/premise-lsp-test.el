;;; premise-lsp-test.el --- ERT tests for premise-lsp.el  -*- lexical-binding: t; -*-

;; Run (test/clients/emacs.test.ts does this):
;;   PREMISE_LSP_TEST_SERVER='["node","dist/cli.js","serve","--stdio","--fake-engine","test/fixtures/lsp/premises.json"]' \
;;   PREMISE_LSP_TEST_FIXTURE=test/fixtures/lsp/Complete.lean PREMISE_LSP_TEST_OUT=/tmp/out.json \
;;   emacs --batch -l ert -l clients/emacs/test/premise-lsp-test.el -f ert-run-tests-batch-and-exit
;;
;; Without PREMISE_LSP_TEST_SERVER only the tests that need no server run.
;; What the editor did is also written to PREMISE_LSP_TEST_OUT (JSON).

;;; Code:

(require 'ert)
(require 'cl-lib)
(unless (locate-library "eglot") (package-initialize))
(add-to-list 'load-path (expand-file-name ".." (file-name-directory (or load-file-name buffer-file-name))))
(add-to-list 'load-path (file-name-directory (or load-file-name buffer-file-name)))
(require 'premise-lsp-test-common)
(require 'eglot)
(require 'premise-lsp)

(defvar premise-lsp-test--fixture (getenv "PREMISE_LSP_TEST_FIXTURE"))
(defvar premise-lsp-test--fake-lean (premise-lsp-test--json-env "PREMISE_LSP_TEST_FAKE_LEAN")
  "A language server that is not premise-lsp (the fake Lean of test/doubles).")
(defvar premise-lsp-test--index-server (premise-lsp-test--json-env "PREMISE_LSP_TEST_INDEX_SERVER")
  "premise-lsp on a real index (the sample's), whose hits carry the uri of their source.")

(defmacro premise-lsp-test--with-server (&rest body)
  "Run BODY in a fresh copy of the fixture, managed by Eglot with premise-lsp.
With `:server CMD' first in BODY, Eglot runs CMD instead."
  (declare (indent 0))
  (let ((server (if (eq (car body) :server) (prog1 (cadr body) (setq body (cddr body))) 'premise-lsp-test--server)))
  `(progn
     (skip-unless (and ,server premise-lsp-test--fixture))
     (let* ((dir (make-temp-file "premise-lsp-ert-" t))
            (file (expand-file-name (file-name-nondirectory premise-lsp-test--fixture) dir))
            (premise-lsp-command ,server)
            (premise-lsp-upstream 'auto)
            (premise-lsp-settings '(:codeActions (:max 2) :liveIndex :json-false)) ; live index off: the fixture's own theorems would compete
            ;; t, not a number: Eglot 1.9 waits a number of seconds with one
            ;; accept-process-output, which returns at the first output of any
            ;; process, so under load `eglot' returned before the handshake
            (eglot-sync-connect t)
            (eglot-connect-timeout 15)
            (eglot-autoreconnect nil)
            (buf nil))
       (copy-file premise-lsp-test--fixture file)
       (unwind-protect
           (progn
             (setq buf (find-file-noselect file))
             (with-current-buffer buf
               (should (eq major-mode 'premise-lsp-plain-mode))
               (apply #'eglot (eglot--guess-contact))
               (should (eglot-current-server))
               ,@body))
         (when (buffer-live-p buf)
           (with-current-buffer buf
             (let ((server (eglot-current-server)))
               (when server (ignore-errors (eglot-shutdown server))))
             (set-buffer-modified-p nil))
           (kill-buffer buf))
         (delete-directory dir t))))))

;;;; Without a server

(defun premise-lsp-test--entry-for (mode)
  "The `eglot-server-programs' entry for MODE as (LANGUAGE-ID . CONTACT), or nil."
  (cl-loop for (modes . contact) in eglot-server-programs
           for specs = (cond ((symbolp modes) (list modes))
                             ((keywordp (cadr modes)) (list modes))
                             (t modes))
           for spec = (cl-find-if (lambda (s) (eq (if (consp s) (car s) s) mode)) specs)
           when spec return (cons (and (consp spec) (plist-get (cdr spec) :language-id)) contact)))

(ert-deftest premise-lsp-test-registration ()
  "premise-lsp is Eglot's server for the Lean, Isabelle and plain modes."
  (dolist (mode '(lean4-mode lean-mode isar-mode premise-lsp-plain-mode))
    (should (eq (cdr (premise-lsp-test--entry-for mode)) #'premise-lsp--contact)))
  (should (equal (car (premise-lsp-test--entry-for 'lean4-mode)) "lean4"))
  (should (equal (car (premise-lsp-test--entry-for 'isar-mode)) "isabelle"))
  (should (eq (assoc-default "/x/Foo.lean" auto-mode-alist #'string-match) 'premise-lsp-plain-mode)))

(ert-deftest premise-lsp-test-command ()
  "Upstream flags follow the major mode; --lean gets the Lake root."
  (let* ((root (file-name-as-directory (make-temp-file "premise-lsp-root-" t)))
         (sub (expand-file-name "Foo/Bar" root))
         (premise-lsp-command '("premise-lsp" "serve" "--stdio"))
         (premise-lsp-upstream 'auto))
    (unwind-protect
        (progn
          (make-directory sub t)
          (write-region "" nil (expand-file-name "lakefile.lean" root))
          (let ((default-directory (file-name-as-directory sub)))
            (should (equal (premise-lsp-server-command 'lean4-mode)
                           (list "premise-lsp" "serve" "--stdio" "--lean" (directory-file-name (expand-file-name root)))))
            (let ((premise-lsp-isabelle-options '("-l" "HOL")))
              (should (equal (premise-lsp-server-command 'isar-mode)
                             '("premise-lsp" "serve" "--stdio" "--isabelle" "-l" "HOL"))))
            (should (equal (premise-lsp-server-command 'premise-lsp-plain-mode) premise-lsp-command))
            (let ((premise-lsp-upstream nil))
              (should (equal (premise-lsp-server-command 'lean4-mode) premise-lsp-command)))
            (should (eq (plist-get (cdr (member "--stdio" (premise-lsp--contact))) :initializationOptions)
                        #'premise-lsp--initialization-options))))
      (delete-directory root t))))

(ert-deftest premise-lsp-test-project-root ()
  "In Lean and Isabelle buffers project.el, so Eglot's workspace folder, is the marked root, with no .git."
  (require 'project)
  (let* ((root (file-name-as-directory (make-temp-file "premise-lsp-proj-" t)))
         (sub (expand-file-name "Proj/Sub/" root))
         (isa (expand-file-name "isa/thys/" root)))
    (unwind-protect
        (progn
          (make-directory sub t)
          (make-directory isa t)
          (write-region "" nil (expand-file-name "lakefile.toml" root))
          (write-region "" nil (expand-file-name "isa/ROOT" root))
          (with-temp-buffer
            (setq default-directory sub)
            (let ((major-mode 'lean4-mode))
              (should (equal (file-name-as-directory (expand-file-name (project-root (project-current))))
                             (expand-file-name root))))
            (let ((major-mode 'isar-mode))
              (should (equal (premise-lsp-project-find isa)
                             (cons 'transient (expand-file-name "isa/" root)))))
            ;; other buffers are left to project.el's own rules
            (let ((major-mode 'fundamental-mode))
              (should-not (premise-lsp-project-find sub)))))
      (delete-directory root t))))

(ert-deftest premise-lsp-test-settings ()
  "initializationOptions carry the premise-lsp section, index included."
  (let ((premise-lsp-index "/tmp/some-index")
        (premise-lsp-settings '(:k 5 :codeActions (:max 1))))
    (should (equal (json-parse-string (json-serialize (premise-lsp--initialization-options nil)) :object-type 'alist)
                   '((premise-lsp . ((k . 5) (codeActions . ((max . 1))) (index . "/tmp/some-index")))))))
  (let ((premise-lsp-index nil) (premise-lsp-settings nil))
    (should (equal (json-serialize (premise-lsp--initialization-options nil)) "{\"premise-lsp\":{}}"))))

;;;; With the server (standalone, fixture engine)

(ert-deftest premise-lsp-test-completion-candidates ()
  "After \"rw [\" Eglot's completion table holds the ranked premises."
  (premise-lsp-test--with-server
    (premise-lsp-test--goto "rw [" t)
    (let* ((capf (eglot-completion-at-point))
           (table (nth 2 capf))
           (cands (all-completions "" table))
           (meta (completion-metadata "" table nil))
           (sort (completion-metadata-get meta 'display-sort-function))
           (sorted (if sort (funcall sort (copy-sequence cands)) cands)))
      (premise-lsp-test--observe "completion" (vconcat (mapcar #'substring-no-properties sorted)))
      (should (member "Nat.add_comm" cands))
      (should (member "Nat.mul_comm" cands))
      (should (equal (substring-no-properties (car sorted)) "Nat.add_comm")))))

(ert-deftest premise-lsp-test-completion-at-point ()
  "completion-at-point completes the half-typed \"Nat.mu\" to Nat.mul_comm."
  (premise-lsp-test--with-server
    (premise-lsp-test--goto "simp [Nat.mu")
    (let ((completion-styles '(basic)))
      (completion-at-point))
    (premise-lsp-test--observe "capf_line" (premise-lsp-test--line))
    (should (equal (premise-lsp-test--line) "  simp [Nat.mul_comm"))))

(ert-deftest premise-lsp-test-insert ()
  "premise-lsp-insert applies the first \"Insert premise\" code action."
  (premise-lsp-test--with-server
    (premise-lsp-test--goto "rw [" t)
    (let (menus)
      (premise-lsp-test--choosing-default menus
        (should (equal (premise-lsp-insert) "Nat.add_comm")))
      (premise-lsp-test--observe "insert_menu" (vconcat (cdar menus)))
      ;; codeActions.max = 2 from premise-lsp-settings reached the server
      (should (equal (cdar menus) '("Nat.add_comm" "Nat.add_zero"))))
    (premise-lsp-test--observe "insert_line" (premise-lsp-test--line))
    (should (equal (premise-lsp-test--line) "  rw [Nat.add_comm]"))))

(defvar premise-lsp-test--try-server (premise-lsp-test--json-env "PREMISE_LSP_TEST_TRY_SERVER")
  "premise-lsp in front of the fake Lean, with the trial fixture's premises.")
(defvar premise-lsp-test--try-fixture (getenv "PREMISE_LSP_TEST_TRY_FIXTURE"))

(ert-deftest premise-lsp-test-try ()
  "premise-lsp-try offers the steps Lean checked, the closing one first, and applies the pick."
  (skip-unless (and premise-lsp-test--try-server premise-lsp-test--try-fixture))
  (let ((premise-lsp-test--fixture premise-lsp-test--try-fixture))
    (premise-lsp-test--with-server
      :server premise-lsp-test--try-server
      (premise-lsp-test--goto "  exact " t)
      (let (menus)
        (premise-lsp-test--choosing-default menus
          (should (equal (premise-lsp-try) "✓ exact add_comm a b — closes the goal")))
        (premise-lsp-test--observe "try_menu" (vconcat (cdar menus))))
      (premise-lsp-test--observe "try_line" (premise-lsp-test--line))
      (should (equal (premise-lsp-test--line) "  exact add_comm a b")))))

(ert-deftest premise-lsp-test-search-text ()
  "premise-lsp-search with text runs premise-lsp.search and inserts the pick."
  (premise-lsp-test--with-server
    (premise-lsp-test--goto "exact " t)
    (let (menus)
      (premise-lsp-test--choosing-default menus
        (should (equal (premise-lsp-search "m < n + 1 → m ≤ n") "Nat.le_of_lt_succ")))
      (should (member "Nat.add_comm" (cdar menus))))
    (premise-lsp-test--observe "search_line" (premise-lsp-test--line))
    (should (equal (premise-lsp-test--line) "  exact Nat.le_of_lt_succ"))
    ;; plain text: the candidate's hit data (statement, doc, …) stays out of the buffer
    (should-not (text-properties-at (1- (point))))
    (should-not (next-single-property-change (point-min) 'premise-lsp-hit))))

(ert-deftest premise-lsp-test-search-at-point ()
  "With no text the query is the declaration at point (standalone)."
  (premise-lsp-test--with-server
    (premise-lsp-test--goto "simp [Nat.mu")
    (let* ((r (premise-lsp-search-results ""))
           (names (mapcar (lambda (h) (plist-get h :name)) (plist-get r :results))))
      (premise-lsp-test--observe "search_at_point" (vconcat names))
      (should (equal (plist-get r :source) "declaration"))
      (should (equal (car names) "Nat.mul_comm")))))

(ert-deftest premise-lsp-test-not-installed ()
  "Without a server, and `premise-lsp-command' not installed, the commands say so."
  (with-temp-buffer
    (let ((premise-lsp-command '("premise-lsp-not-installed-here" "serve" "--stdio")))
      (dolist (cmd (list (lambda () (premise-lsp-search "foo")) #'premise-lsp-insert))
        (let ((err (should-error (funcall cmd) :type 'user-error)))
          (should (string-match-p "premise-lsp-not-installed-here. is not installed or not on PATH" (cadr err))))))))

(ert-deftest premise-lsp-test-search-visit ()
  "C-u M-x premise-lsp-search visits the picked premise's source at its declaration."
  (premise-lsp-test--with-server
    :server premise-lsp-test--index-server
    (let ((buffer-read-only t)) ; visiting needs no writable buffer
      (premise-lsp-test--check-search-visit))))

(ert-deftest premise-lsp-test-search-visit-unknown ()
  "A hit without a uri: visiting says so and changes nothing."
  (premise-lsp-test--with-server
    (let ((searched (current-buffer))
          (before (buffer-string))
          menus said)
      (premise-lsp-test--choosing-default menus
        (cl-letf (((symbol-function 'message) (lambda (fmt &rest args) (push (apply #'format fmt args) said))))
          (should-not (premise-lsp-search "m < n + 1 → m ≤ n" t))))
      (should (eq (current-buffer) searched))
      (should (equal (buffer-string) before))
      (premise-lsp-test--observe "visit_unknown" (or (car said) ""))
      (should (string-match-p "the source of Nat.le_of_lt_succ is not known" (car said))))))

;;;; The documentation's Eglot snippets, verbatim, on a global install and the automatic index

(defun premise-lsp-test--eglot-snippet (name)
  "Run snippet NAME, then open the Lake project's file in lean4-mode as a user would.
lean4-mode is not installed: a stand-in (a `prog-mode') whose hook the
snippet fills.  Eglot's `eglot-ensure' connects after the command that
opened the file, from `post-command-hook', which is run here."
  (let ((snippet (premise-lsp-test--snippet name))
        (file premise-lsp-test--project-file))
    (unless (and snippet file) (ert-skip "no snippet or project given"))
    (unless (fboundp 'lean4-mode)
      (define-derived-mode lean4-mode prog-mode "Lean 4" "Stand-in for lean4-mode."))
    (premise-lsp-test--keeping-hooks '(lean4-mode-hook isar-mode-hook premise-lsp-plain-mode-hook post-command-hook)
      (let ((premise-lsp-command '("premise-lsp" "serve" "--stdio"))
            (premise-lsp-index nil)
            (premise-lsp-settings nil)
            (eglot-sync-connect t)
            (eglot-connect-timeout 20)
            (eglot-autoreconnect nil)
            (buf nil))
        (unwind-protect
            (progn
              (premise-lsp-test--observe (concat (string-replace "-" "_" name) "_load_path")
                                         (vconcat (premise-lsp-test--eval-snippet snippet)))
              (setq buf (find-file-noselect file))
              (with-current-buffer buf
                (lean4-mode)
                (run-hooks 'post-command-hook)
                (let ((server (premise-lsp-test--wait-until "Eglot to connect" #'eglot-current-server 20)))
                  (premise-lsp-test--observe (concat (string-replace "-" "_" name) "_command") (vconcat (process-command (jsonrpc--process server)))))
                (premise-lsp-test--observe (concat (string-replace "-" "_" name) "_names")
                                           (vconcat (premise-lsp-test--wait-for-premise "quux wibble commute" "Proj.quux_wibble")))))
          (when (buffer-live-p buf)
            (with-current-buffer buf
              (let ((server (eglot-current-server)))
                (when server (ignore-errors (eglot-shutdown server)))))
            (kill-buffer buf)))))))

(ert-deftest premise-lsp-test-snippet-eglot ()
  "docs/editors.md's Eglot setup: premise-lsp in front of lake in lean4-mode, the project indexed by itself."
  (premise-lsp-test--eglot-snippet "emacs-eglot"))

(when (locate-library "use-package")
  (ert-deftest premise-lsp-test-snippet-use-package ()
    "The README's use-package recipe: the same, with the package found beside the premise-lsp command."
    ;; Emacs 29 has use-package autoloaded; on 28, package.el activates elpa-use-package
    ;; at startup, which batch mode skips
    (require 'use-package)
    (premise-lsp-test--eglot-snippet "emacs-use-package")))

;; docs/editors.md's picker key, run as written: the key is in lean4-mode's map once lean4-mode loads
(ert-deftest premise-lsp-test-snippet-picker ()
  "The live picker snippet: C-c C-s runs `premise-lsp-pick' in lean4-mode buffers."
  (let ((snippet (premise-lsp-test--snippet "emacs-picker")))
    (unless snippet (ert-skip "no snippet given"))
    (unless (fboundp 'lean4-mode)
      (define-derived-mode lean4-mode prog-mode "Lean 4" "Stand-in for lean4-mode."))
    (premise-lsp-test--eval-snippet snippet t) ; after the setup, which put the package on `load-path'
    (provide 'lean4-mode) ; what loading lean4-mode does: the snippet's `with-eval-after-load' runs
    (should (eq (lookup-key lean4-mode-map (kbd "C-c C-s")) #'premise-lsp-pick))
    (premise-lsp-test--observe "snippet_picker_key" (symbol-name (lookup-key lean4-mode-map (kbd "C-c C-s"))))))

;;;; Checking a setup, and the server's messages

(ert-deftest premise-lsp-test-doctor ()
  "M-x premise-lsp-doctor: the checks of :checkhealth, in a buffer."
  (skip-unless premise-lsp-test--project-file)
  (let ((default-directory (file-name-directory premise-lsp-test--project-file))
        (premise-lsp-settings nil))
    (let* ((premise-lsp-command '("premise-lsp" "serve" "--stdio"))
           (premise-lsp-index nil)
           (report (with-current-buffer (premise-lsp-doctor) (buffer-string))))
      (premise-lsp-test--observe "doctor_ok" report)
      (should (string-match-p "^  OK +command: premise-lsp serve --stdio (" report))
      (should (string-match-p "^  OK +the server starts and answers initialize (premise-lsp" report))
      (should (string-match-p "no `premise-lsp-index': the server indexes the project by itself" report))
      (should (string-match-p "^  OK +lean: lake (" report))
      (should-not (string-match-p "ERROR" report)))
    (let* ((premise-lsp-command '("premise-lsp" "serve" "--stdio"))
           (premise-lsp-index "/nonexistent/premise-lsp-index")
           (report (with-current-buffer (premise-lsp-doctor) (buffer-string))))
      (premise-lsp-test--observe "doctor_bad_index" report)
      (should (string-match-p "ERROR +index (`premise-lsp-index') /nonexistent/premise-lsp-index has no manifest.json" report))
      (should (string-match-p "premise-lsp index <sources> --out /nonexistent/premise-lsp-index" report)))
    (let* ((premise-lsp-command '("premise-lsp-not-installed-here" "serve" "--stdio"))
           (report (with-current-buffer (premise-lsp-doctor) (buffer-string))))
      (premise-lsp-test--observe "doctor_missing" report)
      (should (string-match-p "ERROR +`premise-lsp-not-installed-here' is not installed or not on PATH: npm install -g" report)))))

(ert-deftest premise-lsp-test-show-message ()
  "An index that does not exist: the server's window/showMessage is in the echo area and *Messages*."
  (let ((premise-lsp-index "/nonexistent/premise-lsp-idx"))
    (premise-lsp-test--with-server
      :server '("premise-lsp" "serve" "--stdio") ; the global install, serving the index setting
      (let ((seen (premise-lsp-test--wait-until
                   "the message in *Messages*"
                   (lambda () (let ((m (premise-lsp-test--messages)))
                                (and (string-match-p "could not load the premise index" m) m)))
                   40)))
        (premise-lsp-test--observe "show_message" seen)))))

;;;; Awkward moments

(ert-deftest premise-lsp-test-other-server ()
  "A buffer whose Eglot server is not premise-lsp: a clear error, nothing sent to it."
  (premise-lsp-test--with-server
    :server premise-lsp-test--fake-lean
    (premise-lsp-test--goto "rw [" t)
    (let ((before (buffer-string)) menus)
      (premise-lsp-test--choosing-default menus
        (dolist (cmd (list (lambda () (premise-lsp-search "m < n")) (lambda () (premise-lsp-search ""))
                           #'premise-lsp-insert #'premise-lsp-send-settings))
          (let ((err (should-error (funcall cmd) :type 'user-error)))
            (should (string-match-p "Eglot server is not premise-lsp" (cadr err))))))
      (should (null menus))
      (should (equal (buffer-string) before)))))

(ert-deftest premise-lsp-test-read-only ()
  "In a read-only buffer both commands stop before asking the server or showing a menu."
  (premise-lsp-test--with-server
    (premise-lsp-test--goto "rw [" t)
    (read-only-mode 1)
    (let ((before (buffer-string)) menus)
      (premise-lsp-test--choosing-default menus
        (should-error (premise-lsp-insert) :type 'buffer-read-only)
        (should-error (premise-lsp-search "m < n + 1 → m ≤ n") :type 'buffer-read-only))
      (should (null menus))
      (should (equal (buffer-string) before)))
    (read-only-mode -1)))

(provide 'premise-lsp-test)
;;; premise-lsp-test.el ends here
