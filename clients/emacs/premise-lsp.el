;;; premise-lsp.el --- Premise selection for Lean 4 and Isabelle through Eglot or lsp-mode  -*- lexical-binding: t; -*-

;; Version: 0.2.0
;; Package-Requires: ((emacs "27.1"))
;; Keywords: languages, tools
;; SPDX-License-Identifier: Apache-2.0

;;; Commentary:

;; Registers the premise-lsp language server with Eglot for `lean4-mode',
;; `lean-mode' and `isar-mode' (and `premise-lsp-plain-mode', a minimal mode
;; for .lean/.thy files when neither is installed).  premise-lsp sits in front
;; of the prover's server (`--lean ROOT', `--isabelle') or runs alone, and adds
;; ranked premises to completion, "Insert premise: ..." code actions, hover,
;; and the command `premise-lsp.search'.
;;
;;   (require 'premise-lsp)
;;   (setq premise-lsp-command '("premise-lsp" "serve" "--stdio")
;;         premise-lsp-index "~/indexes/mathlib")
;;   (add-hook 'lean4-mode-hook #'eglot-ensure)
;;
;; Commands: `premise-lsp-search' (free text, or the goal at point when the
;; text is empty; pick a result, its name is inserted; with a prefix argument,
;; C-u, its source is visited at its declaration instead), `premise-lsp-insert'
;; (pick one of premise-lsp's "Insert premise" code actions and apply it),
;; `premise-lsp-try' (Lean tries the top premises in place of the step at
;; point; pick one of the steps that close the goal or make progress),
;; `premise-lsp-send-settings' (push the settings to a running server).
;; They work with Eglot (registered here once Eglot is loaded) and with
;; lsp-mode (see premise-lsp-lsp.el: premise-lsp in front of lean4-mode's or
;; isabelle-emacs's server, or as an add-on server beside them).

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'url-util)

(declare-function eglot-current-server "eglot")
(declare-function eglot--capabilities "eglot")
(declare-function eglot-code-actions "eglot")
(declare-function eglot-execute "eglot")
(declare-function eglot-execute-command "eglot")
(declare-function eglot--apply-workspace-edit "eglot")
(declare-function eglot--TextDocumentPositionParams "eglot")
(declare-function eglot--TextDocumentIdentifier "eglot")
(declare-function eglot--signal-textDocument/didChange "eglot")
(declare-function jsonrpc-request "jsonrpc")
(declare-function jsonrpc-notify "jsonrpc")
(declare-function xref-push-marker-stack "xref")
(defvar eglot-server-programs)

(defgroup premise-lsp nil
  "Premise selection language server."
  :group 'tools
  :prefix "premise-lsp-")

(defcustom premise-lsp-command '("premise-lsp" "serve" "--stdio")
  "Command line of the premise-lsp server, without upstream flags.
Upstream flags (see `premise-lsp-upstream') are appended."
  :type '(repeat string))

(defcustom premise-lsp-upstream 'auto
  "Which prover server premise-lsp forwards to.
`auto': Lean for `lean4-mode'/`lean-mode' (`--lean ROOT'), Isabelle for
`isar-mode' (`--isabelle'), none otherwise.  `lean', `isabelle', or nil
(standalone: premises only)."
  :type '(choice (const :tag "By major mode" auto)
                 (const :tag "Lean 4 (--lean ROOT)" lean)
                 (const :tag "Isabelle (--isabelle)" isabelle)
                 (const :tag "None (standalone)" nil)))

(defcustom premise-lsp-isabelle-options nil
  "Extra options after `--isabelle' (e.g. (\"-l\" \"HOL\"))."
  :type '(repeat string))

(defcustom premise-lsp-index nil
  "Index directory served by premise-lsp (the `index' setting), or nil."
  :type '(choice (const :tag "Server default" nil) directory))

(defcustom premise-lsp-settings nil
  "Other settings of the `premise-lsp' section, as a plist.
For example (:k 10 :mode \"bm25\" :codeActions (:max 3))."
  :type 'plist)

(defcustom premise-lsp-lean-modes '(lean4-mode lean-mode)
  "Major modes of Lean 4 buffers."
  :type '(repeat symbol))

(defcustom premise-lsp-isabelle-modes '(isar-mode isabelle-mode)
  "Major modes of Isabelle theory buffers."
  :type '(repeat symbol))

(defconst premise-lsp-search-command "premise-lsp.search")
(defconst premise-lsp-try-command "premise-lsp.try")
(defconst premise-lsp--insert-title-re "\\`Insert premise")

;;;; Settings and contact

(defun premise-lsp-settings ()
  "The `premise-lsp' settings section as a plist."
  (let ((s (copy-sequence premise-lsp-settings)))
    (when (and premise-lsp-index (not (plist-member s :index)))
      (setq s (plist-put s :index (expand-file-name premise-lsp-index))))
    (or s (make-hash-table))))

(defun premise-lsp--initialization-options (_server)
  "JSON object for `initializationOptions'."
  (list :premise-lsp (premise-lsp-settings)))

(defconst premise-lsp-root-markers '("lakefile.lean" "lakefile.toml" "lean-toolchain" "ROOT" "ROOTS")
  "Files that mark the root of a Lean (Lake) project or an Isabelle session.")

(defun premise-lsp--marker-root (dir)
  "The nearest directory at or above DIR holding one of `premise-lsp-root-markers', or nil."
  (let ((found (delq nil (mapcar (lambda (m) (locate-dominating-file dir m)) premise-lsp-root-markers))))
    (when found
      (car (sort (mapcar #'file-name-as-directory found) (lambda (a b) (> (length a) (length b))))))))

(defun premise-lsp--root ()
  "Project root for the prover: a Lean/Isabelle marker, the project, or here."
  (expand-file-name
   (or (premise-lsp--marker-root default-directory)
       (when-let ((p (project-current)))
         (if (fboundp (quote project-root)) (project-root p) (with-no-warnings (car (project-roots p)))))
       default-directory)))

(defun premise-lsp-project-find (dir)
  "The Lean or Isabelle project DIR is in, for `project-find-functions'.
Only in buffers of the Lean and Isabelle modes premise-lsp serves: there the
project (and so Eglot's and lsp-mode's workspace folder) is the nearest
directory with a lakefile, `lean-toolchain', ROOT or ROOTS, even with no `.git'
\(without this, Eglot takes the file's own directory).  A transient project."
  (when (apply #'provided-mode-derived-p major-mode
               (append premise-lsp-lean-modes premise-lsp-isabelle-modes '(premise-lsp-plain-mode)))
    (when-let ((root (premise-lsp--marker-root dir)))
      (cons 'transient (expand-file-name root)))))

;; first, so that a `.git' inside the project does not make a subfolder the root
(with-eval-after-load 'project
  (add-hook 'project-find-functions #'premise-lsp-project-find -50))

(defun premise-lsp--upstream (mode)
  "The upstream for a buffer in MODE."
  (if (eq premise-lsp-upstream 'auto)
      (cond ((apply #'provided-mode-derived-p mode premise-lsp-lean-modes) 'lean)
            ((apply #'provided-mode-derived-p mode premise-lsp-isabelle-modes) 'isabelle))
    premise-lsp-upstream))

(defun premise-lsp-server-command (&optional mode)
  "The server command line for a buffer in MODE (default: the current one)."
  (append premise-lsp-command
          (pcase (premise-lsp--upstream (or mode major-mode))
            ('lean (list "--lean" (directory-file-name (premise-lsp--root))))
            ('isabelle (cons "--isabelle" premise-lsp-isabelle-options))
            ('nil nil)
            (other (user-error "premise-lsp-upstream: unknown value %S" other)))))

(defun premise-lsp--contact (&optional _interactive)
  "Eglot CONTACT for premise-lsp."
  (append (premise-lsp-server-command)
          (list :initializationOptions #'premise-lsp--initialization-options)))

;;;; A plain major mode, for .lean/.thy files when no prover mode is installed

(defvar premise-lsp-plain-mode-syntax-table
  (let ((st (make-syntax-table prog-mode-syntax-table)))
    ;; Lean and Isabelle names: Nat.add_comm, h', le_trans
    (modify-syntax-entry ?. "_" st)
    (modify-syntax-entry ?_ "_" st)
    (modify-syntax-entry ?' "_" st)
    st))

;;;###autoload
(define-derived-mode premise-lsp-plain-mode prog-mode "Premises"
  "Minimal mode for Lean/Isabelle files, to use premise-lsp without a prover mode."
  :syntax-table premise-lsp-plain-mode-syntax-table
  (setq-local comment-start "-- "))

;;;###autoload
(defun premise-lsp--plain-mode-fallback ()
  "Map .lean and .thy to `premise-lsp-plain-mode' unless a mode is registered."
  (dolist (ext '("\\.lean\\'" "\\.thy\\'"))
    (unless (assoc-default (if (string-prefix-p "\\.lean" ext) "x.lean" "x.thy") auto-mode-alist #'string-match)
      (add-to-list 'auto-mode-alist (cons ext 'premise-lsp-plain-mode) t))))

;;;###autoload
(defun premise-lsp-register ()
  "Add premise-lsp to `eglot-server-programs' (first, so it wins)."
  (require 'eglot)
  (dolist (entry `(((,@(mapcar (lambda (m) (list m :language-id "lean4")) premise-lsp-lean-modes))
                    . premise-lsp--contact)
                   ((,@(mapcar (lambda (m) (list m :language-id "isabelle")) premise-lsp-isabelle-modes))
                    . premise-lsp--contact)
                   (premise-lsp-plain-mode . premise-lsp--contact)))
    (setq eglot-server-programs
          (cons entry (cl-remove (car entry) eglot-server-programs :key #'car :test #'equal)))))

(with-eval-after-load 'eglot (premise-lsp-register))
(premise-lsp--plain-mode-fallback)

;;;; Talking to the server: one backend per LSP client (Eglot, lsp-mode)

;; A backend is a plist of functions for the current buffer:
;;   :request (METHOD PARAMS) -> the result as plists (JSON objects) and vectors
;;   :notify (METHOD PARAMS)
;;   :document () -> (:uri URI :position POSITION) of point, changes sent
;;   :code-actions () -> premise-lsp's code actions at point, as (TITLE . ACTION)
;;   :checked-actions () -> the steps Lean checked at point (premise-lsp.try), as (TITLE . ACTION)
;;   :execute (ACTION) -> apply ACTION (its edit, then its command)
(defvar premise-lsp-backend-functions (list #'premise-lsp--eglot-backend)
  "Functions returning the backend plist of the current buffer, or nil.
The first non-nil answer is used; premise-lsp-lsp.el adds lsp-mode's.")

(defun premise-lsp--missing-program ()
  "The program of `premise-lsp-command' when it is not installed, else nil."
  (let ((exe (car premise-lsp-command)))
    (unless (and exe (or (file-executable-p exe) (executable-find exe)))
      (or exe ""))))

(defun premise-lsp--backend ()
  "The backend talking to premise-lsp in this buffer, or an error."
  (or (run-hook-with-args-until-success 'premise-lsp-backend-functions)
      (let ((exe (premise-lsp--missing-program))
            (other (and (fboundp 'eglot-current-server) (eglot-current-server))))
        (cond
         (other
          (user-error "premise-lsp: this buffer's Eglot server is not premise-lsp (M-x eglot-shutdown, then M-x eglot with premise-lsp)"))
         (exe
          (user-error "premise-lsp: no premise-lsp server in this buffer: `%s' is not installed or not on PATH (see `premise-lsp-command')" exe))
         (t
          (user-error "premise-lsp: no premise-lsp server in this buffer (M-x eglot, or lsp-mode with premise-lsp-lsp)"))))))

(defun premise-lsp--call (op &rest args)
  "Call OP of this buffer's backend with ARGS."
  (apply (plist-get (premise-lsp--backend) op) args))

(defun premise-lsp--insert-action-p (title)
  "Is TITLE one of premise-lsp's \"Insert premise\" code actions?"
  (and (stringp title) (string-match-p premise-lsp--insert-title-re title)))

;;;;; Eglot

(defun premise-lsp--eglot-server ()
  "This buffer's Eglot server when it is premise-lsp (offers `premise-lsp.search').
Another server (Eglot's for a non-Lean buffer, a plain Lean server) is not."
  (when-let ((server (and (fboundp 'eglot-current-server) (eglot-current-server))))
    (let* ((caps (eglot--capabilities server))
           (commands (plist-get (plist-get caps :executeCommandProvider) :commands)))
      (when (member premise-lsp-search-command (append commands nil))
        server))))

(defun premise-lsp--eglot-backend ()
  "The Eglot backend, when Eglot runs premise-lsp in this buffer."
  (when-let ((server (premise-lsp--eglot-server)))
    (list :request (lambda (method params) (jsonrpc-request server (intern (concat ":" method)) params))
          :notify (lambda (method params) (jsonrpc-notify server (intern (concat ":" method)) params))
          :document (lambda ()
                      (premise-lsp--sync)
                      (list :uri (plist-get (eglot--TextDocumentIdentifier) :uri)
                            :position (plist-get (eglot--TextDocumentPositionParams) :position)))
          :code-actions (lambda ()
                          (premise-lsp--sync)
                          (cl-loop for a across (vconcat (eglot-code-actions (point) nil "quickfix"))
                                   when (premise-lsp--insert-action-p (plist-get a :title))
                                   collect (cons (plist-get a :title) a)))
          :checked-actions (lambda ()
                             (premise-lsp--sync)
                             (cl-loop for a across (vconcat (eglot-code-actions (point) nil "quickfix"))
                                      when (premise-lsp--checked-action-p a)
                                      collect (cons (plist-get a :title) a)))
          :execute (lambda (action) (premise-lsp--execute-action server action)))))

(defun premise-lsp--sync ()
  "Send pending buffer changes before a request that depends on them."
  (when (fboundp 'eglot--signal-textDocument/didChange)
    (eglot--signal-textDocument/didChange)))

;;;;; Requests

(defun premise-lsp-send-settings ()
  "Send the current settings to the server with workspace/didChangeConfiguration."
  (interactive)
  (premise-lsp--call :notify "workspace/didChangeConfiguration"
                     (list :settings (list :premise-lsp (premise-lsp-settings)))))

(defun premise-lsp-search-results (query)
  "Run `premise-lsp.search' for QUERY (empty or nil: the goal at point).
Returns the result plist (:query :source :results [...])."
  (let* ((backend (premise-lsp--backend))
         (arg (if (and query (string-match-p "[^[:space:]]" query))
                  (list :query query)
                (funcall (plist-get backend :document)))))
    (funcall (plist-get backend :request) "workspace/executeCommand"
             (list :command premise-lsp-search-command :arguments (vector arg)))))

(defun premise-lsp--candidate (hit)
  "Display string of a search HIT."
  (let ((name (plist-get hit :name))
        (statement (replace-regexp-in-string "\n" " " (or (plist-get hit :statement) ""))))
    (propertize name 'premise-lsp-hit hit 'premise-lsp-statement statement)))

(defun premise-lsp--uri-file (uri)
  "The local file name of a file: URI, or nil for another kind of URI."
  (when (and (stringp uri) (string-match "\\`file://\\(?:localhost\\)?\\(/.*\\)\\'" uri))
    (let ((path (decode-coding-string (url-unhex-string (match-string 1 uri)) 'utf-8)))
      ;; file:///C:/x on Windows
      (if (string-match-p "\\`/[A-Za-z]:" path) (substring path 1) path))))

(defun premise-lsp--visit (hit)
  "Visit the source of search HIT at its declaration, or say that it is unknown.
Returns the buffer visited, or nil."
  (let* ((file (premise-lsp--uri-file (plist-get hit :uri)))
         (line (plist-get (plist-get (plist-get hit :range) :start) :line)))
    (if (not (and file (file-readable-p file)))
        (progn (message "premise-lsp: the source of %s is not known (%s)"
                        (plist-get hit :name) (or (plist-get hit :location) (plist-get hit :file) "no location"))
               nil)
      (when (fboundp 'xref-push-marker-stack) (xref-push-marker-stack)) ; M-, comes back
      (find-file file)
      (widen)
      (goto-char (point-min))
      (forward-line (if (integerp line) line 0))
      (current-buffer))))

;;;###autoload
(defun premise-lsp-search (query &optional visit)
  "Search premises for QUERY, pick one and insert its name at point.
With an empty QUERY, search for the goal (or declaration) at point.
With a prefix argument (VISIT non-nil), visit the picked premise's source
at its declaration instead of inserting its name."
  (interactive (progn (unless current-prefix-arg (barf-if-buffer-read-only))
                      (list (read-string "Premise search (empty: goal at point): ")
                            current-prefix-arg)))
  (unless visit (barf-if-buffer-read-only)) ; before asking the server and showing a menu
  (let* ((result (premise-lsp-search-results query))
         (hits (append (plist-get result :results) nil)))
    (if (null hits)
        (progn (message "premise-lsp: no premises found") nil)
      (let* ((cands (mapcar #'premise-lsp--candidate hits))
             (width (apply #'max (mapcar #'length cands)))
             (annot (lambda (c)
                      (when-let ((c (car (member c cands))))
                        (concat (make-string (- (+ 2 width) (length c)) ?\s)
                                (get-text-property 0 'premise-lsp-statement c)))))
             (table (lambda (string pred action)
                      (if (eq action 'metadata)
                          `(metadata (annotation-function . ,annot)
                                     (display-sort-function . identity)
                                     (cycle-sort-function . identity))
                        (complete-with-action action cands string pred))))
             (choice (completing-read (format "Premise (%s): " (car cands)) table nil t nil nil (car cands))))
        (when (and choice (not (string-empty-p choice)))
          (if visit
              (when (premise-lsp--visit (cl-find (substring-no-properties choice) hits
                                                 :key (lambda (h) (plist-get h :name)) :test #'equal))
                choice)
            (insert (substring-no-properties choice)) ; not the hit data the candidate carries
            choice))))))

(defun premise-lsp-code-actions ()
  "premise-lsp's \"Insert premise\" code actions at point, as (TITLE . ACTION)."
  (premise-lsp--call :code-actions))

(defun premise-lsp--execute-action (server action)
  "Apply code ACTION from SERVER (its edit, then its command)."
  (if (fboundp 'eglot-execute)
      (eglot-execute server action)
    (let ((edit (plist-get action :edit))
          (command (plist-get action :command)))
      (when (and (null edit) (null command))
        (setq action (jsonrpc-request server :codeAction/resolve action)
              edit (plist-get action :edit)
              command (plist-get action :command)))
      (when edit (eglot--apply-workspace-edit edit))
      (when command
        (eglot-execute-command server (intern (plist-get command :command))
                               (plist-get command :arguments))))))

(defun premise-lsp--choose (prompt items)
  "Ask with PROMPT for one of ITEMS, (TITLE . ACTION) best first, kept in order.
The first is the default; answers the chosen item, nil for none."
  (let* ((default (caar items))
         (table (lambda (string pred action)
                  (if (eq action 'metadata)
                      '(metadata (display-sort-function . identity))
                    (complete-with-action action items string pred))))
         (choice (completing-read (format "%s (%s): " prompt default) table nil t nil nil default)))
    (assoc choice items)))

;;;###autoload
(defun premise-lsp-insert ()
  "Pick one of premise-lsp's \"Insert premise\" code actions and apply it."
  (interactive)
  (barf-if-buffer-read-only) ; before asking the server and showing a menu
  (let* ((backend (premise-lsp--backend))
         (actions (funcall (plist-get backend :code-actions))))
    (if (null actions)
        (progn (message "premise-lsp: no premise to insert here") nil)
      (let* ((items (mapcar (lambda (a)
                              (cons (replace-regexp-in-string "\\`Insert premise: " "" (car a)) (cdr a)))
                            actions))
             (item (premise-lsp--choose "Insert premise" items)))
        (when item
          (funcall (plist-get backend :execute) (cdr item))
          (car item))))))

;;;; Trying premises: M-x premise-lsp-try

(defun premise-lsp-try-results ()
  "Run `premise-lsp.try' at point: Lean tries the top premises in place of the step there.
The buffer is not touched (Lean elaborates each step in a document of its own).
Returns the result plist (:results [(:step :premise :outcome :goals :message) ...]),
best first; :outcome is \"closes\", \"progress\", \"fails\" or \"timeout\"."
  (let* ((backend (premise-lsp--backend))
         (doc (funcall (plist-get backend :document))))
    (funcall (plist-get backend :request) "workspace/executeCommand"
             (list :command premise-lsp-try-command
                   :arguments (vector (list :textDocument (list :uri (plist-get doc :uri))
                                            :position (plist-get doc :position)))))))

(defun premise-lsp--checked-action-p (action)
  "Is ACTION a step Lean checked (a premise-lsp.try verdict, with its edit)?"
  (and (plist-get action :edit)
       (eq (plist-get (plist-get (plist-get action :data) :premise-lsp) :verified) t)))

;;;###autoload
(defun premise-lsp-try ()
  "Have Lean try the top premises at the step at point; pick one that works.
The steps that close the goal come first (\"✓ exact add_comm a b — closes the
goal\"), then those that make progress; the one picked replaces the step at
point.  Trials are switched off or on with the `trials' setting (see
`premise-lsp-settings')."
  (interactive)
  (barf-if-buffer-read-only) ; before asking the server and showing a menu
  (let* ((backend (premise-lsp--backend))
         (tick (buffer-chars-modified-tick))
         (result (progn (message "premise-lsp: trying premises...") (premise-lsp-try-results)))
         (results (append (plist-get result :results) nil))
         (works (cl-remove-if-not (lambda (r) (member (plist-get r :outcome) '("closes" "progress"))) results)))
    (if (null works)
        (progn (message "premise-lsp: %s"
                        (if (plist-get result :reason)
                            (format "nothing tried: %s" (plist-get result :reason))
                          (format "none of the %d steps tried closes the goal or makes progress" (length results))))
               nil)
      ;; the checked steps come back as code actions carrying their edits
      (let ((items (funcall (plist-get backend :checked-actions))))
        (if (null items)
            (progn (message "premise-lsp: the buffer changed while premises were tried; run M-x premise-lsp-try again") nil)
          (let ((item (premise-lsp--choose "Step checked by Lean" items)))
            (when item
              (unless (= tick (buffer-chars-modified-tick))
                (user-error "premise-lsp: the buffer changed since the trials; run M-x premise-lsp-try again"))
              (funcall (plist-get backend :execute) (cdr item))
              (car item))))))))

;;;; Checking a setup: M-x premise-lsp-doctor

(defun premise-lsp--doctor-base ()
  "The premise-lsp program part of `premise-lsp-command' (before \"serve\")."
  (cl-loop for w in premise-lsp-command until (equal w "serve") collect w))

(defun premise-lsp--doctor-run (argv &optional timeout)
  "Run ARGV for at most TIMEOUT seconds (default 60); (EXIT-CODE . OUTPUT).
EXIT-CODE is a string when it could not run or did not finish in time (a
command that hangs does not hang the doctor)."
  (let* ((buf (generate-new-buffer " *premise-lsp doctor run*"))
         (proc (condition-case e
                   (make-process :name "premise-lsp-doctor-run" :command argv :buffer buf
                                 :connection-type 'pipe :noquery t :sentinel #'ignore)
                 (error (error-message-string e)))))
    (unwind-protect
        (if (stringp proc)
            (cons proc "")
          (process-send-eof proc)
          (let ((deadline (+ (float-time) (or timeout 60))))
            (while (and (process-live-p proc) (< (float-time) deadline))
              (accept-process-output proc 0.05)))
          (if (process-live-p proc)
              (progn (delete-process proc)
                     (cons "timeout" (format "%s did not finish within %d s" (string-join argv " ") (or timeout 60))))
            (accept-process-output proc 0)
            (cons (process-exit-status proc) (string-trim (with-current-buffer buf (buffer-string))))))
      (kill-buffer buf))))

(defun premise-lsp--doctor-server (base timeout)
  "Start BASE serve --stdio (standalone, no automatic index) and send initialize.
Wait up to TIMEOUT seconds for the answer, then shut it down.  Returns
\(ok . SERVER-INFO) or (error . WHY)."
  (let* ((argv (append base '("serve" "--stdio")))
         (out "") (reply nil)
         (stderr (generate-new-buffer " *premise-lsp doctor stderr*"))
         (proc (condition-case e
                   (make-process :name "premise-lsp-doctor" :command argv :connection-type 'pipe
                                 :coding 'binary :noquery t :stderr stderr
                                 :filter (lambda (_p s) (setq out (concat out s))))
                 (error (kill-buffer stderr) (error-message-string e)))))
    (if (stringp proc)
        (cons 'error (format "could not start %s: %s" (string-join argv " ") proc))
      (cl-flet ((send (msg)
                  (let ((body (encode-coding-string (json-serialize msg) 'utf-8)))
                    (process-send-string proc (format "Content-Length: %d\r\n\r\n%s" (length body) body))))
                (parse ()
                  (let ((start 0))
                    (while (and (not reply)
                                (string-match "Content-Length: \\([0-9]+\\)\r\n\r\n" out start))
                      (let* ((len (string-to-number (match-string 1 out)))
                             (beg (match-end 0)))
                        (if (> (+ beg len) (length out))
                            (setq start (length out))
                          (let ((msg (ignore-errors
                                       (json-parse-string (decode-coding-string (substring out beg (+ beg len)) 'utf-8)
                                                          :object-type 'plist :null-object nil :false-object nil))))
                            (when (equal (plist-get msg :id) 1) (setq reply msg)))
                          (setq start (+ beg len))))))))
        (unwind-protect
            (progn
              (send (list :jsonrpc "2.0" :id 1 :method "initialize"
                          :params (list :processId :null :rootUri :null :capabilities (make-hash-table)
                                        :initializationOptions (list :premise-lsp (list :autoIndex :false)))))
              (let ((deadline (+ (float-time) timeout)))
                (while (and (not reply) (process-live-p proc) (< (float-time) deadline))
                  (accept-process-output proc 0.05)
                  (parse)))
              (when reply
                (send '(:jsonrpc "2.0" :id 2 :method "shutdown"))
                (send '(:jsonrpc "2.0" :method "exit"))
                (let ((deadline (+ (float-time) 2)))
                  (while (and (process-live-p proc) (< (float-time) deadline))
                    (accept-process-output proc 0.05))))
              (cond
               ((null reply)
                (cons 'error (format "%s did not answer initialize within %d s%s" (string-join argv " ") timeout
                                     (let ((why (string-trim (with-current-buffer stderr (buffer-string)))))
                                       (if (string-empty-p why) "" (concat ": " why))))))
               ((plist-get reply :error)
                (cons 'error (format "initialize failed: %s" (plist-get (plist-get reply :error) :message))))
               (t (cons 'ok (plist-get (plist-get reply :result) :serverInfo)))))
          (when (process-live-p proc) (delete-process proc))
          (kill-buffer stderr))))))

(defun premise-lsp-doctor-checks ()
  "The checks of `premise-lsp-doctor' for the current buffer.
A list of (SECTION LEVEL TEXT); LEVEL is `ok', `warning', `error' or `info'."
  (let ((checks nil)
        (exe (premise-lsp--missing-program)))
    (cl-flet ((add (section level text) (push (list section level text) checks)))
      (if exe
          (add "server" 'error (format "`%s' is not installed or not on PATH: npm install -g premise-lsp-<version>.tgz (in a checkout: npm ci && npm link), or set `premise-lsp-command'" exe))
        (let* ((base (premise-lsp--doctor-base))
               (program (or (executable-find (car base)) (car base))))
          (add "server" 'ok (format "command: %s (%s)" (string-join premise-lsp-command " ") program))
          (pcase-let ((`(,code . ,out) (premise-lsp--doctor-run (append base '("--version")))))
            (if (equal code 0)
                (add "server" 'ok (format "version: %s" (car (split-string out "\n"))))
              (add "server" 'warning (format "`%s --version' failed (a premise-lsp older than --version?): %s"
                                             (string-join base " ") (car (split-string out "\n"))))))
          (pcase (premise-lsp--doctor-server base 15)
            (`(ok . ,info) (add "server" 'ok (format "the server starts and answers initialize (%s %s)"
                                                    (or (plist-get info :name) "?") (or (plist-get info :version) ""))))
            (`(error . ,why) (add "server" 'error (format "the server does not start: %s" why))))
          (let ((index (plist-get (premise-lsp-settings) :index))
                (root (directory-file-name (premise-lsp--root))))
            (cond
             ((null index)
              (add "index" 'info "no `premise-lsp-index': the server indexes the project by itself (automatic index, cached)"))
             ((file-readable-p (expand-file-name "manifest.json" index))
              (add "index" 'ok (format "index (`premise-lsp-index'): %s" index)))
             (t (add "index" 'error (format "index (`premise-lsp-index') %s has no manifest.json: it does not exist or is not an index; build it with premise-lsp index <sources> --out %s, or set `premise-lsp-index' to nil: the server then indexes the project by itself (automatic index)" index index))))
            (pcase-let ((`(,code . ,out) (premise-lsp--doctor-run (append base (list "doctor" root)))))
              (if (and (not (equal code 0)) (string-match-p "unknown command \"doctor\"" out))
                  (add "index" 'warning "this premise-lsp has no `doctor' command (update it to see the index and cache state)")
                (add "index" 'info (format "premise-lsp doctor %s%s:" root (if (equal code 0) "" (format " (exit %s)" code))))
                ;; its lines: "✓ check", or "✗ check" followed by indented "fix: ..." lines
                (dolist (line (split-string out "\n" t))
                  (cond ((string-prefix-p "✓ " line) (add "index" 'ok (substring line 2)))
                        ((string-prefix-p "✗ " line) (add "index" 'error (substring line 2)))
                        (t (add "index" 'info (string-trim line))))))))))
      (let ((upstream (premise-lsp--upstream major-mode)))
        (pcase-dolist (`(,kind . ,programs) '((lean "lake" "lean") (isabelle "isabelle")))
          (let ((found (cl-loop for p in programs for path = (executable-find p)
                                when path return (format "%s (%s)" p path))))
            (cond
             (found (add "prover" 'ok (format "%s: %s" kind found)))
             ((eq upstream kind)
              (add "prover" 'error (format "%s: %s not on PATH, and this buffer's premise-lsp runs in front of it"
                                           kind (string-join programs " or "))))
             (t (add "prover" 'info (format "%s: %s not on PATH" kind (string-join programs " or ")))))))))
    (nreverse checks)))

;;;###autoload
(defun premise-lsp-doctor ()
  "Check the premise-lsp setup for the current buffer; show the report in a buffer.
The checks of Neovim's :checkhealth premise-lsp: the command, its version,
whether the server starts, the index (or `premise-lsp doctor' on the
project: the automatic index's cache), the provers on PATH.  Returns the
report buffer."
  (interactive)
  (let ((checks (premise-lsp-doctor-checks))
        (buf (get-buffer-create "*premise-lsp doctor*"))
        (section nil))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert "premise-lsp doctor\n")
        (pcase-dolist (`(,s ,level ,text) checks)
          (unless (equal s section)
            (setq section s)
            (insert "\n" (capitalize s) "\n"))
          (insert (format "  %-8s %s\n" (upcase (symbol-name level)) text)))
        (goto-char (point-min)))
      (special-mode))
    (when (called-interactively-p 'interactive) (display-buffer buf))
    buf))

(provide 'premise-lsp)
;;; premise-lsp.el ends here
