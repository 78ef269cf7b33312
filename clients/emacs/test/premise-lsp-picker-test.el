;;; premise-lsp-picker-test.el --- ERT tests for premise-lsp-picker.el  -*- lexical-binding: t; -*-

;; Run (test/clients/emacs.test.ts does this), with the server on the sample's index:
;;   PREMISE_LSP_TEST_INDEX_SERVER='["node","dist/cli.js","serve","--stdio","--index","IDX"]' \
;;   PREMISE_LSP_TEST_FIXTURE=test/fixtures/lsp/Complete.lean PREMISE_LSP_TEST_OUT=/tmp/out.json \
;;   emacs --batch -l ert -l clients/emacs/test/premise-lsp-picker-test.el \
;;     --eval '(ert-run-tests-batch-and-exit "premise-lsp-picker-")'
;;
;; The minibuffer is driven by keyboard macros (typed keys, RET, C-c C-o);
;; `completing-read' is the UI (consult is not installed here).

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'quail)
(load (expand-file-name "premise-lsp-test.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)
(require 'premise-lsp-picker)
(require 'premise-lsp-picker-test-common)

(defmacro premise-lsp-picker-test--with-index (&rest body)
  "Run BODY in a copy of the fixture, with Eglot running premise-lsp on the sample's index."
  (declare (indent 0))
  `(premise-lsp-test--with-server
     :server premise-lsp-test--index-server
     (let ((premise-lsp-picker-backend 'completing-read)
           (premise-lsp-picker-input-method nil))
       ,@body)))

(ert-deftest premise-lsp-picker-test-typing ()
  "The results follow the text typed (debounced); the preview has statement, docstring, module."
  (premise-lsp-picker-test--with-index
    (premise-lsp-test--goto "exact " t)
    (let ((s (premise-lsp-picker-session)) shown)
      (unwind-protect
          (progn
            (premise-lsp-picker-input s "length of a list append" (lambda (h &rest _) (setq shown h)))
            (premise-lsp-picker-test--wait (lambda () (equal (premise-lsp-picker-test--first s) "Sample.Lists.length_append'"))
                                           "length_append' first")
            (should (equal (plist-get (car shown) :name) "Sample.Lists.length_append'"))
            ;; typed further, quickly: one search, for the last text
            (dolist (text '("tri" "triangle" "triangle inequality"))
              (premise-lsp-picker-input s text #'ignore))
            (premise-lsp-picker-test--wait (lambda () (equal (premise-lsp-picker-test--first s) "Sample.Order.abs_add_le"))
                                           "abs_add_le first")
            (premise-lsp-test--observe "picker_sent" (vconcat (reverse (premise-lsp-picker-session-sent s))))
            (should (equal (premise-lsp-picker-session-query s) "triangle inequality"))
            (let ((preview (premise-lsp-picker-preview-text (car (premise-lsp-picker-session-hits s)))))
              (premise-lsp-test--observe "picker_preview" preview)
              (should (string-prefix-p "Sample.Order.abs_add_le" preview))
              (should (string-search "|a + b| ≤ |a| + |b|" preview))
              (should (string-search "The triangle inequality" preview))
              (should (string-search "module Sample.Order" preview))))
        (premise-lsp-picker-close s)))))

(ert-deftest premise-lsp-picker-test-live-minibuffer ()
  "In the minibuffer, *Completions* shows the results of the text as it is typed."
  (premise-lsp-picker-test--with-index
    (premise-lsp-test--goto "exact " t)
    (let ((premise-lsp-picker-test--completions nil))
      (premise-lsp-picker-test--type "C-c p length SPC of SPC a SPC list C-c w C-a C-k triangle SPC inequality C-c w RET")
      (let ((shown (reverse premise-lsp-picker-test--completions)))
        (premise-lsp-test--observe "picker_completions" (vconcat shown))
        (should (= (length shown) 2))
        (should (string-search "Sample.Lists.length_append'" (nth 0 shown)))
        (should (string-search "Sample.Order.abs_add_le" (nth 1 shown)))
        (should (< (string-search "Sample.Order.abs_add_le" (nth 1 shown))
                   (or (string-search "Sample.Lists.length_append'" (nth 1 shown)) most-positive-fixnum))))
      (should (equal (premise-lsp-test--line) "  exact Sample.Order.abs_add_le")))))

(ert-deftest premise-lsp-picker-test-consult ()
  "With consult (stubbed: the two functions the picker calls), its dynamic collection
searches the input, the state function previews, RET's candidate is inserted."
  (premise-lsp-picker-test--with-index
    (premise-lsp-test--goto "exact " t)
    (let ((premise-lsp-picker-backend 'auto) (features features) options previewed)
      (provide 'consult)
      (cl-letf (((symbol-function 'consult--dynamic-collection)
                 (lambda (fun &rest opts) (push opts options) fun))
                ((symbol-function 'consult--read)
                 (lambda (collection &rest opts)
                   (push opts options)
                   (let ((cands (funcall collection "triangle inequality")))
                     (funcall (plist-get opts :state) 'preview (car cands))
                     (setq previewed (with-current-buffer "*premise-lsp preview*" (buffer-string)))
                     (funcall (plist-get opts :lookup) (car cands) cands "triangle inequality" nil)))))
        (should (premise-lsp-picker--use-consult-p))
        (should (equal (premise-lsp-pick) "Sample.Order.abs_add_le")))
      (should (equal (premise-lsp-test--line) "  exact Sample.Order.abs_add_le"))
      (should (string-prefix-p "Sample.Order.abs_add_le" previewed))
      (should (equal (plist-get (cadr options) :debounce) premise-lsp-picker-debounce))
      (should (keymapp (plist-get (car options) :keymap)))
      (should (eq (lookup-key (plist-get (car options) :keymap) (kbd "C-c C-o")) #'premise-lsp-picker-jump-exit)))))

(ert-deftest premise-lsp-picker-test-stale ()
  "A search sent while another is pending cancels it: $/cancelRequest, and its reply is dropped."
  (premise-lsp-picker-test--with-index
    (let ((s (premise-lsp-picker-session)) notes first-called second)
      (cl-flet ((record (_conn method params)
                  (when (eq method :$/cancelRequest) (push (plist-get params :id) notes))))
        (advice-add 'jsonrpc-notify :before #'record)
        (unwind-protect
            (progn
              (premise-lsp-picker-search s "length of a list append" (lambda (&rest _) (setq first-called t)))
              (premise-lsp-picker-search s "triangle inequality" (lambda (h &rest _) (setq second h)))
              (premise-lsp-picker-test--wait (lambda () second) "the second search")
              ;; a late reply to the first, if the server sent one, has had time to come
              (let ((t0 (float-time))) (while (< (- (float-time) t0) 0.3) (accept-process-output nil 0.02)))
              (premise-lsp-test--observe "picker_cancelled" (vconcat (premise-lsp-picker-session-cancelled s)))
              (should (= (length (premise-lsp-picker-session-cancelled s)) 1))
              (should (integerp (car (premise-lsp-picker-session-cancelled s))))
              (should (equal notes (premise-lsp-picker-session-cancelled s)))
              (should-not first-called)
              (should (equal (plist-get (car second) :name) "Sample.Order.abs_add_le")))
          (advice-remove 'jsonrpc-notify #'record)
          (premise-lsp-picker-close s))))))

(ert-deftest premise-lsp-picker-test-enter ()
  "Typed text, RET: the top result's name is inserted at point, one undo step."
  (premise-lsp-picker-test--with-index
    (premise-lsp-test--goto "exact " t)
    (let ((before (buffer-string)))
      (undo-boundary)
      (premise-lsp-picker-test--type "C-c p triangle SPC inequality RET")
      (premise-lsp-test--observe "picker_enter_line" (premise-lsp-test--line))
      (should (equal (premise-lsp-test--line) "  exact Sample.Order.abs_add_le"))
      (should (looking-back "abs_add_le" (line-beginning-position)))
      (undo-boundary)
      (let ((last-command nil)) (undo))
      (should (equal (buffer-string) before)))))

(ert-deftest premise-lsp-picker-test-import ()
  "A result's import edit is applied with the name, in the same undo step."
  (premise-lsp-picker-test--with-index
    (premise-lsp-test--goto "exact " t)
    (let ((before (buffer-string))
          (s (premise-lsp-picker-session)))
      (undo-boundary)
      (should (equal (premise-lsp-picker-accept
                      s (list :name "Sample.Lists.rev_rev"
                              :importEdit (list :range (list :start (list :line 0 :character 0) :end (list :line 0 :character 0))
                                                :newText "import Sample.Lists\n")))
                     "Sample.Lists.rev_rev"))
      (should (equal (premise-lsp-test--line) "  exact Sample.Lists.rev_rev"))
      (should (eolp))
      (should (equal (save-excursion (goto-char (point-min)) (premise-lsp-test--line)) "import Sample.Lists"))
      (undo-boundary)
      (let ((last-command nil)) (undo))
      (should (equal (buffer-string) before)))))

(ert-deftest premise-lsp-picker-test-jump ()
  "The jump key (C-c C-o) visits the chosen premise's source at its declaration,
also from a read-only buffer (a library source); RET there inserts nothing."
  (premise-lsp-picker-test--with-index
    (read-only-mode 1)
    (let ((searched (current-buffer)) (before (buffer-string)))
      (should-error (premise-lsp-picker-test--type "C-c p triangle SPC inequality RET") :type 'buffer-read-only)
      (should (equal (buffer-string) before))
      (premise-lsp-picker-test--type "C-c p triangle SPC inequality C-c C-o")
      (let ((visited (current-buffer)))
        (unwind-protect
            (progn
              (should-not (eq visited searched))
              (premise-lsp-test--observe "picker_jump_file" (buffer-file-name visited))
              (premise-lsp-test--observe "picker_jump_line" (premise-lsp-test--line))
              (should (string-prefix-p "/-- The triangle inequality" (premise-lsp-test--line)))
              (forward-line 1)
              (should (string-prefix-p "theorem abs_add_le " (premise-lsp-test--line)))
              (should (equal (with-current-buffer searched (buffer-string)) before)))
          (unless (eq visited searched) (kill-buffer visited))
          (set-buffer searched)
          (read-only-mode -1))))))

;; lean4-mode's input method, stubbed: a quail package named "Lean" (as lean4-input.el defines)
(quail-define-package "Lean" "UTF-8" "∀" t "Stub of lean4-mode's Lean input method." nil t nil nil nil nil nil nil nil nil t)
(quail-define-rules ("\\le" ?≤) ("\\and" ?∧))

(ert-deftest premise-lsp-picker-test-unicode ()
  "With lean4-mode's \"Lean\" input method, \\le typed in the prompt is ≤ in the search."
  (premise-lsp-picker-test--with-index
    (premise-lsp-test--goto "exact " t)
    (let ((premise-lsp-picker-input-method 'auto) texts)
      (cl-flet ((record (_s text &rest _) (push text texts)))
        (advice-add 'premise-lsp-picker-search :before #'record)
        (unwind-protect
            (premise-lsp-picker-test--type "C-c p a SPC \\ l e SPC b SPC \\ a n d SPC c RET")
          (advice-remove 'premise-lsp-picker-search #'record)))
      (premise-lsp-test--observe "picker_unicode" (car texts))
      (should (equal (car texts) "a ≤ b ∧ c"))
      ;; the top result of that search went in
      (should-not (equal (premise-lsp-test--line) "  exact ")))))

(provide 'premise-lsp-picker-test)
;;; premise-lsp-picker-test.el ends here
