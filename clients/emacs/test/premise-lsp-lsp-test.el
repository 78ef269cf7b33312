;;; premise-lsp-lsp-test.el --- ERT tests for premise-lsp-lsp.el (lsp-mode)  -*- lexical-binding: t; -*-

;; Run (test/clients/emacs-lsp-mode.test.ts does this):
;;   PREMISE_LSP_TEST_SERVER='["node","dist/cli.js","serve","--stdio","--fake-engine","test/fixtures/lsp/premises.json"]' \
;;   PREMISE_LSP_TEST_FAKE_LEAN='["node","test/doubles/fake-lean.mjs"]' \
;;   PREMISE_LSP_TEST_FAKE_ISABELLE='["node","test/doubles/fake-isabelle.mjs"]' \
;;   PREMISE_LSP_TEST_FIXTURES=test/fixtures/lsp PREMISE_LSP_TEST_OUT=/tmp/out.json \
;;   emacs --batch -l ert -l clients/emacs/test/premise-lsp-lsp-test.el -f ert-run-tests-batch-and-exit
;;
;; lean4-mode and isabelle-emacs are not installed: minimal stand-ins below
;; define `lean4-mode' and `isar-mode' and register their lsp-mode clients
;; the way those packages do (lean4-mode: client `lean4-lsp', a command
;; function, a `$/lean/fileProgress' handler, `lsp' on the mode hook;
;; isabelle-emacs: client `lsp-isar', priority 1, registered only when
;; `lsp-isar-define-client-and-start' first runs, PIDE handlers), with the
;; repository's fake Lean and fake Isabelle as their servers.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'subr-x)
(unless (locate-library "lsp-mode") (package-initialize))
(add-to-list 'load-path (expand-file-name ".." (file-name-directory (or load-file-name buffer-file-name))))
(add-to-list 'load-path (file-name-directory (or load-file-name buffer-file-name)))
(require 'premise-lsp-test-common)
(setq premise-lsp-test--client-library "lsp-mode")

(defvar premise-lsp-test--fake-lean (premise-lsp-test--json-env "PREMISE_LSP_TEST_FAKE_LEAN"))
(defvar premise-lsp-test--fake-isabelle (premise-lsp-test--json-env "PREMISE_LSP_TEST_FAKE_ISABELLE"))
(defvar premise-lsp-test--fixtures (getenv "PREMISE_LSP_TEST_FIXTURES"))
(defvar premise-lsp-test--index-server (premise-lsp-test--json-env "PREMISE_LSP_TEST_INDEX_SERVER")
  "premise-lsp on a real index (the sample's), whose hits carry the uri of their source.")
(setq lsp-session-file (make-temp-file "premise-lsp-lsp-session-")
      lsp-enable-snippet nil
      lsp-enable-file-watchers nil
      lsp-keep-workspace-alive nil
      lsp-restart 'ignore
      lsp-diagnostics-provider :none
      lsp-headerline-breadcrumb-enable nil
      lsp-modeline-code-actions-enable nil
      lsp-modeline-diagnostics-enable nil
      lsp-modeline-workspace-status-enable nil
      lsp-lens-enable nil
      lsp-enable-symbol-highlighting nil
      lsp-signature-auto-activate nil
      lsp-auto-guess-root nil
      lsp-response-timeout 15)

(require 'lsp-mode)
(require 'lsp-completion)
(load "lsp-mode-autoloads" t t) ; as package.el does (lsp-modeline, lsp-headerline…)

;;;; Stand-in for lean4-mode (what its lsp-mode registration does)

(defvar premise-lsp-test--file-progress 0 "`$/lean/fileProgress' notifications seen by lean4-mode's handler.")

(define-derived-mode lean4-mode prog-mode "Lean 4"
  "Stand-in for lean4-mode."
  (modify-syntax-entry ?. "_")
  (modify-syntax-entry ?_ "_")
  (modify-syntax-entry ?' "_"))
(add-to-list 'lsp-language-id-configuration '(lean4-mode . "lean4"))
(defun lean4--server-cmd () premise-lsp-test--fake-lean)
(lsp-register-client
 (make-lsp-client :new-connection (lsp-stdio-connection #'lean4--server-cmd)
                  :major-modes '(lean4-mode)
                  :server-id 'lean4-lsp
                  :notification-handlers (ht ("$/lean/fileProgress" (lambda (_w _p) (cl-incf premise-lsp-test--file-progress))))))
(add-hook 'lean4-mode-hook #'lsp)

;;;; Stand-in for isabelle-emacs (lsp-isar.el)

(defvar premise-lsp-test--dynamic-output nil "Last `PIDE/dynamic_output' content seen by isabelle-emacs's handler.")
(define-derived-mode isar-mode prog-mode "Isar" "Stand-in for isabelle-emacs's isar-mode.")
(defun lsp-full-isabelle-path ()
  (append premise-lsp-test--fake-isabelle
          '("vscode_server" "-o" "vscode_unicode_symbols" "-o" "vscode_pide_extensions" "-o" "vscode_caret_perspective=10")))
(defvar lsp-isar--already-defined-client nil)
(defun lsp-isar-define-client ()
  (push '(isar-mode . "isabelle") lsp-language-id-configuration)
  (lsp-register-client
   (make-lsp-client :new-connection (lsp-stdio-connection 'lsp-full-isabelle-path)
                    :major-modes '(isar-mode)
                    :server-id 'lsp-isar
                    :priority 1
                    :notification-handlers
                    (ht ("PIDE/dynamic_output" (lambda (_w p) (setq premise-lsp-test--dynamic-output (gethash "content" p))))
                        ("PIDE/decoration" #'ignore)
                        ("PIDE/progress" #'ignore)))))
(defun lsp-isar-define-client-and-start ()
  (unless lsp-isar--already-defined-client
    (lsp-isar-define-client)
    (setq lsp-isar--already-defined-client t))
  (lsp))
(add-hook 'isar-mode-hook #'lsp-isar-define-client-and-start)

(require 'premise-lsp-lsp)

;;;; Helpers

(defun premise-lsp-test--wait (what pred &optional seconds)
  "Run the event loop until PRED holds; fail naming WHAT after SECONDS."
  (let ((deadline (+ (float-time) (or seconds 15))))
    (while (not (funcall pred))
      (when (> (float-time) deadline)
        (ert-fail (format "timed out waiting for %s" what)))
      (accept-process-output nil 0.05))))

(defun premise-lsp-test--server-ids ()
  (sort (mapcar (lambda (w) (symbol-name (lsp--client-server-id (lsp--workspace-client w)))) (lsp-workspaces))
        #'string<))

(defmacro premise-lsp-test--with-buffer (spec &rest body)
  "SPEC is (FIXTURE MODE SERVERS): open a copy of FIXTURE in MODE, wait for SERVERS, run BODY."
  (declare (indent 1))
  `(progn
     (skip-unless (and premise-lsp-test--server premise-lsp-test--fake-lean premise-lsp-test--fixtures))
     (let* ((dir (file-name-as-directory (make-temp-file "premise-lsp-lsp-ert-" t)))
            (file (expand-file-name ,(nth 0 spec) dir))
            (premise-lsp-command premise-lsp-test--server)
            (premise-lsp-settings '(:codeActions (:max 2) :liveIndex :json-false)) ; live index off: the fixture's own theorems would compete
            (buf nil))
       (copy-file (expand-file-name ,(nth 0 spec) premise-lsp-test--fixtures) file)
       (lsp-workspace-folders-add (directory-file-name dir))
       (unwind-protect
           (progn
             (setq buf (find-file-noselect file))
             (with-current-buffer buf
               (funcall #',(nth 1 spec))
               (premise-lsp-test--wait
                "the servers to initialize"
                (lambda () (and (equal (premise-lsp-test--server-ids) ',(nth 2 spec))
                                (cl-every (lambda (w) (eq (lsp--workspace-status w) 'initialized)) (lsp-workspaces)))))
               ,@body))
         (when (buffer-live-p buf)
           (with-current-buffer buf
             (dolist (w (lsp-workspaces)) (ignore-errors (lsp-workspace-shutdown w)))
             (set-buffer-modified-p nil))
           (kill-buffer buf))
         (lsp-workspace-folders-remove (directory-file-name dir))
         (delete-directory dir t)))))

(defun premise-lsp-test--completions ()
  "Labels of `lsp-completion-at-point' at point, in lsp-mode's display order."
  (let* ((capf (lsp-completion-at-point))
         (table (nth 2 capf))
         (cands (all-completions "" table))
         (meta (completion-metadata "" table nil))
         (sort (completion-metadata-get meta 'display-sort-function)))
    (mapcar #'substring-no-properties (if sort (funcall sort (copy-sequence cands)) cands))))

(defun premise-lsp-test--lean-scenario (prefix)
  "Completion, premise-lsp-insert and premise-lsp-search in Complete.lean; record under PREFIX."
  ;; completion in a premise slot
  (premise-lsp-test--goto "rw [" t)
  (let ((labels (premise-lsp-test--completions)))
    (premise-lsp-test--observe (concat prefix "_completion") (vconcat labels))
    (should (member "Nat.add_comm" labels))
    (should (member "Nat.mul_comm" labels)))
  ;; the insert code action, applied to the buffer
  (let (menus)
    (premise-lsp-test--choosing-default menus
      (should (equal (premise-lsp-insert) "Nat.add_comm")))
    (premise-lsp-test--observe (concat prefix "_insert_menu") (vconcat (cdar menus)))
    (should (equal (cdar menus) '("Nat.add_comm" "Nat.add_zero"))))
  (premise-lsp-test--observe (concat prefix "_insert_line") (premise-lsp-test--line))
  (should (equal (premise-lsp-test--line) "  rw [Nat.add_comm]"))
  ;; the search command, free text
  (premise-lsp-test--goto "exact " t)
  (let (menus)
    (premise-lsp-test--choosing-default menus
      (should (equal (premise-lsp-search "m < n + 1 → m ≤ n") "Nat.le_of_lt_succ"))))
  (premise-lsp-test--observe (concat prefix "_search_line") (premise-lsp-test--line))
  (should (equal (premise-lsp-test--line) "  exact Nat.le_of_lt_succ")))

;;;; Without servers

(ert-deftest premise-lsp-lsp-test-command ()
  "premise-lsp goes in front of the wrapped command, or uses its own flags."
  (let ((premise-lsp-command '("premise-lsp" "serve" "--stdio"))
        (premise-lsp-lsp-upstream 'theirs))
    (should (equal (premise-lsp-lsp-command 'lean '("lake" "serve"))
                   '("premise-lsp" "serve" "--stdio" "--flavor" "lean" "--" "lake" "serve")))
    ;; isabelle-emacs's options: vscode_pide_extensions is there, editor_output_state is added
    (should (equal (premise-lsp-lsp-command 'isabelle '("/isa/bin/isabelle" "vscode_server" "-o" "vscode_pide_extensions" "-m" "do_notation"))
                   '("premise-lsp" "serve" "--stdio" "--flavor" "isabelle" "--" "/isa/bin/isabelle" "vscode_server"
                     "-o" "vscode_pide_extensions" "-m" "do_notation" "-o" "editor_output_state")))
    (let ((premise-lsp-lsp-upstream 'premise-lsp)
          (premise-lsp-isabelle-options '("-l" "HOL")))
      (should (equal (premise-lsp-lsp-command 'lean '("lake" "serve") "/p/q/")
                     '("premise-lsp" "serve" "--stdio" "--lean" "/p/q")))
      (should (equal (premise-lsp-lsp-command 'isabelle '("isabelle" "vscode_server"))
                     '("premise-lsp" "serve" "--stdio" "--isabelle" "-l" "HOL"))))))

(ert-deftest premise-lsp-lsp-test-registration ()
  "Proxy mode copies lean4-mode's client now and isabelle-emacs's when it registers."
  (unwind-protect
      (progn
        (premise-lsp-lsp-proxy-mode 1)
        (let ((copy (gethash 'premise-lsp+lean4-lsp lsp-clients)))
          (should copy)
          (should (equal (lsp--client-priority copy) 1))
          (should (equal (lsp--client-major-modes copy) '(lean4-mode)))
          (should (gethash "$/lean/fileProgress" (lsp--client-notification-handlers copy))))
        (let ((lsp-isar--already-defined-client nil))
          (lsp-isar-define-client)
          (let ((copy (gethash 'premise-lsp+lsp-isar lsp-clients)))
            (should copy)
            (should (equal (lsp--client-priority copy) 2))
            (should (gethash "PIDE/dynamic_output" (lsp--client-notification-handlers copy)))))
        (premise-lsp-lsp-proxy-mode -1)
        (should-not (gethash 'premise-lsp+lean4-lsp lsp-clients))
        (premise-lsp-lsp-add-on-mode 1)
        (let ((c (gethash 'premise-lsp lsp-clients)))
          (should (lsp--client-add-on? c))
          (should (memq 'lean4-mode (lsp--client-major-modes c)))
          (should (memq 'isar-mode (lsp--client-major-modes c))))
        ;; one premise-lsp per buffer: the modes exclude each other
        (premise-lsp-lsp-proxy-mode 1)
        (should-not premise-lsp-lsp-add-on-mode)
        (should-not (gethash 'premise-lsp lsp-clients))
        (premise-lsp-lsp-add-on-mode 1)
        (should-not premise-lsp-lsp-proxy-mode)
        (should-not (gethash 'premise-lsp+lean4-lsp lsp-clients)))
    (premise-lsp-lsp-proxy-mode -1)
    (premise-lsp-lsp-add-on-mode -1)
    (remhash 'lsp-isar lsp-clients)))

;;;; lean4-mode-style setup: premise-lsp in front of lean4-mode's client

(ert-deftest premise-lsp-lsp-test-lean-proxy ()
  "lean4-mode's client, wrapped: premise-lsp proxies the (fake) Lean server."
  (unwind-protect
      (progn
        (premise-lsp-lsp-proxy-mode 1)
        (setq premise-lsp-test--file-progress 0)
        (premise-lsp-test--with-buffer ("Complete.lean" lean4-mode ("premise-lsp+lean4-lsp"))
          (premise-lsp-test--lean-scenario "proxy")
          ;; search at point: the goal comes from Lean's $/lean/plainGoal through the proxy
          (premise-lsp-test--goto "simp [Nat.mu")
          (let* ((r (premise-lsp-search-results ""))
                 (names (mapcar (lambda (h) (plist-get h :name)) (plist-get r :results))))
            (premise-lsp-test--observe "proxy_search_at_point" (vconcat names))
            (premise-lsp-test--observe "proxy_search_source" (plist-get r :source))
            (should (equal (plist-get r :source) "goal:plainGoal"))
            (should (equal (car names) "Nat.mul_comm")))
          ;; lean4-mode's own notification handler still gets Lean's fileProgress
          (premise-lsp-test--observe "proxy_file_progress" premise-lsp-test--file-progress)
          (should (> premise-lsp-test--file-progress 0))))
    (premise-lsp-lsp-proxy-mode -1)))

(ert-deftest premise-lsp-lsp-test-try ()
  "premise-lsp-try through lsp-mode: the steps Lean checked, the closing one first, applied."
  (unwind-protect
      (progn
        (premise-lsp-lsp-proxy-mode 1)
        (premise-lsp-test--with-buffer ("Trials.lean" lean4-mode ("premise-lsp+lean4-lsp"))
          ;; the fixture engine's premise is Nat.add_comm: the fake Lean's step table learns its step
          (goto-char (point-min))
          (insert "-- step: exact Nat.add_comm a b => closes\n")
          (premise-lsp-test--goto "  exact " t)
          (let (menus)
            (premise-lsp-test--choosing-default menus
              (should (equal (premise-lsp-try) "✓ exact Nat.add_comm a b — closes the goal")))
            (premise-lsp-test--observe "try_menu" (vconcat (cdar menus))))
          (premise-lsp-test--observe "try_line" (premise-lsp-test--line))
          (should (equal (premise-lsp-test--line) "  exact Nat.add_comm a b"))))
    (premise-lsp-lsp-proxy-mode -1)))

;;;; Add-on setup: premise-lsp beside lean4-mode's client

(ert-deftest premise-lsp-lsp-test-lean-add-on ()
  "premise-lsp as an add-on server next to lean4-mode's (fake) Lean server."
  (unwind-protect
      (progn
        (premise-lsp-lsp-add-on-mode 1)
        (premise-lsp-test--with-buffer ("Complete.lean" lean4-mode ("lean4-lsp" "premise-lsp"))
          (premise-lsp-test--lean-scenario "add_on")
          (premise-lsp-test--goto "simp [Nat.mu")
          (let ((r (premise-lsp-search-results "")))
            (premise-lsp-test--observe "add_on_search_source" (plist-get r :source))
            (should (equal (plist-get r :source) "declaration")))
          ;; the fixture engine's hits have no uri: visiting one says so, and stays here
          (let ((here (current-buffer)) menus said)
            (premise-lsp-test--choosing-default menus
              (cl-letf (((symbol-function 'message) (lambda (fmt &rest args) (push (apply #'format fmt args) said))))
                (should-not (premise-lsp-search "m < n + 1 → m ≤ n" t))))
            (should (eq (current-buffer) here))
            (premise-lsp-test--observe "add_on_visit_unknown" (or (car said) ""))
            (should (string-match-p "the source of Nat.le_of_lt_succ is not known" (car said))))))
    (premise-lsp-lsp-add-on-mode -1)))

(ert-deftest premise-lsp-lsp-test-search-visit ()
  "C-u M-x premise-lsp-search under lsp-mode visits the picked premise's source at its declaration."
  (skip-unless premise-lsp-test--index-server)
  (unwind-protect
      (let ((premise-lsp-test--server premise-lsp-test--index-server))
        (premise-lsp-lsp-add-on-mode 1)
        (premise-lsp-test--with-buffer ("Complete.lean" lean4-mode ("lean4-lsp" "premise-lsp"))
          (premise-lsp-test--check-search-visit)))
    (premise-lsp-lsp-add-on-mode -1)))

(ert-deftest premise-lsp-lsp-test-astral-column ()
  "A character beyond U+FFFF before point: lsp-mode 8 would misplace the edit, so none is made."
  (unwind-protect
      (progn
        (premise-lsp-lsp-add-on-mode 1)
        (premise-lsp-test--with-buffer ("Complete.lean" lean4-mode ("lean4-lsp" "premise-lsp"))
          (premise-lsp-test--goto "rw [")
          (beginning-of-line)
          (insert "/- 𝓝 𝔼 -/")
          (premise-lsp-test--goto "rw [" t)
          (let ((before (buffer-string)) menus)
            (premise-lsp-test--choosing-default menus
              (let ((err (should-error (premise-lsp-insert) :type 'user-error)))
                (should (string-match-p "not inserted: this lsp-mode counts columns in characters" (cadr err)))))
            (should (null menus))
            (should (equal (buffer-string) before)))
          ;; a plain insertion at point is right: premise-lsp-search still works there
          (let (menus)
            (premise-lsp-test--choosing-default menus
              (should (equal (premise-lsp-search "m < n + 1 → m ≤ n") "Nat.le_of_lt_succ"))))
          (should (equal (premise-lsp-test--line) "/- 𝓝 𝔼 -/  rw [Nat.le_of_lt_succ"))))
    (premise-lsp-lsp-add-on-mode -1)))

;;;; isabelle-emacs-style setup: premise-lsp in front of lsp-isar

(ert-deftest premise-lsp-lsp-test-isabelle-proxy ()
  "isabelle-emacs's client, wrapped when it registers: goals from PIDE/dynamic_output."
  (skip-unless premise-lsp-test--fake-isabelle)
  (unwind-protect
      (let ((lsp-isar--already-defined-client nil))
        (premise-lsp-lsp-proxy-mode 1)
        (setq premise-lsp-test--dynamic-output nil)
        (premise-lsp-test--with-buffer ("Demo.thy" isar-mode ("premise-lsp+lsp-isar"))
          (premise-lsp-test--goto "  by simp")
          (let* ((r (premise-lsp-search-results ""))
                 (names (mapcar (lambda (h) (plist-get h :name)) (plist-get r :results))))
            (premise-lsp-test--observe "isabelle_search_source" (plist-get r :source))
            (premise-lsp-test--observe "isabelle_search_at_point" (vconcat names))
            (should (equal (plist-get r :source) "goal:dynamic_output"))
            (should (equal (car names) "Nat.add_0_right")))
          ;; isabelle-emacs's own handler still sees the state output
          (premise-lsp-test--wait "isabelle-emacs's dynamic_output handler" (lambda () premise-lsp-test--dynamic-output) 5)
          (should (string-match-p (regexp-quote "x + 0 = x") premise-lsp-test--dynamic-output))
          ;; completion inside `by (simp add: '
          (premise-lsp-test--goto "  by simp" t)
          (delete-region (line-beginning-position) (point))
          (insert "  by (simp add: ")
          (let ((labels (premise-lsp-test--completions)))
            (premise-lsp-test--observe "isabelle_completion" (vconcat labels))
            (should (member "Nat.add_0_right" labels)))))
    (premise-lsp-lsp-proxy-mode -1)
    (remhash 'lsp-isar lsp-clients)))

;;;; docs/editors.md's lsp-mode snippet, verbatim, on a global install and the automatic index

(ert-deftest premise-lsp-lsp-test-snippet ()
  "The lsp-mode setup of docs/editors.md: premise-lsp wraps lean4-mode's client; the project is indexed by itself."
  (let ((snippet (premise-lsp-test--snippet "emacs-lsp-mode"))
        (file premise-lsp-test--project-file)
        (buf nil))
    (skip-unless (and snippet file premise-lsp-test--fake-lean))
    (let ((root (directory-file-name (locate-dominating-file file "lakefile.lean")))
          (premise-lsp-command '("premise-lsp" "serve" "--stdio"))
          (premise-lsp-index nil)
          (premise-lsp-settings nil))
      (unwind-protect
          (progn
            (premise-lsp-test--observe "snippet_load_path" (vconcat (premise-lsp-test--eval-snippet snippet)))
            (lsp-workspace-folders-add root) ; lsp-mode's "import project root?", answered
            (setq buf (find-file-noselect file))
            (with-current-buffer buf
              (lean4-mode)
              (premise-lsp-test--wait
               "premise-lsp in front of lean4-mode's client"
               (lambda () (and (equal (premise-lsp-test--server-ids) '("premise-lsp+lean4-lsp"))
                               (cl-every (lambda (w) (eq (lsp--workspace-status w) 'initialized)) (lsp-workspaces)))))
              (premise-lsp-test--observe "snippet_command"
                                         (vconcat (process-command (lsp--workspace-proc (car (lsp-workspaces))))))
              (premise-lsp-test--observe "snippet_names"
                                         (vconcat (premise-lsp-test--wait-for-premise "quux wibble commute" "Proj.quux_wibble")))))
        (when (buffer-live-p buf)
          (with-current-buffer buf
            (dolist (w (lsp-workspaces)) (ignore-errors (lsp-workspace-shutdown w))))
          (kill-buffer buf))
        (lsp-workspace-folders-remove root)
        (premise-lsp-lsp-proxy-mode -1)))))

;;;; The server's messages

(ert-deftest premise-lsp-lsp-test-show-message ()
  "An index that does not exist, premise-lsp in front of lean4-mode's client: its window/showMessage
reaches the echo area and *Messages*."
  (unwind-protect
      (let ((premise-lsp-test--server '("premise-lsp" "serve" "--stdio")) ; the global install, serving the index setting
            (premise-lsp-index "/nonexistent/premise-lsp-idx"))
        (premise-lsp-lsp-proxy-mode 1)
        (premise-lsp-test--with-buffer ("Complete.lean" lean4-mode ("premise-lsp+lean4-lsp"))
          (premise-lsp-test--wait "the message in *Messages*"
                                  (lambda () (string-match-p "could not load the premise index" (premise-lsp-test--messages)))
                                  40)
          (premise-lsp-test--observe "show_message" (premise-lsp-test--messages))))
    (premise-lsp-lsp-proxy-mode -1)))

;;;; lsp-mode's language ids: no *Warnings* in the buffers premise-lsp attaches to

(ert-deftest premise-lsp-lsp-test-no-language-id-warnings ()
  "The add-on in `premise-lsp-plain-mode' buffers (.lean and .thy files without a prover mode):
lsp-mode knows their language ids, so *Warnings* stays empty."
  (unwind-protect
      (progn
        (premise-lsp-lsp-add-on-mode 1)
        (add-hook 'premise-lsp-plain-mode-hook #'lsp)
        (when (get-buffer "*Warnings*") (kill-buffer "*Warnings*"))
        (premise-lsp-test--with-buffer ("Complete.lean" premise-lsp-plain-mode ("premise-lsp"))
          (should (equal (lsp-buffer-language) "lean4"))
          (premise-lsp-test--goto "rw [" t)
          (should (member "Nat.add_comm" (premise-lsp-test--completions))))
        (premise-lsp-test--with-buffer ("Demo.thy" premise-lsp-plain-mode ("premise-lsp"))
          (should (equal (lsp-buffer-language) "isabelle")))
        (let ((warnings (if (get-buffer "*Warnings*") (with-current-buffer "*Warnings*" (buffer-string)) "")))
          (premise-lsp-test--observe "add_on_warnings" warnings)
          (should (equal warnings ""))))
    (remove-hook 'premise-lsp-plain-mode-hook #'lsp)
    (premise-lsp-lsp-add-on-mode -1)))

(provide 'premise-lsp-lsp-test)
;;; premise-lsp-lsp-test.el ends here
