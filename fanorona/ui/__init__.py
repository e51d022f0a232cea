"""The interactive board: the click state machine (``controller``, plain Python), its picture in
matplotlib and its controls in ipywidgets, composed by ``widget.BoardWidget``.  Importing this
package loads no GUI library; ``fanorona.BoardWidget`` is the public name."""
