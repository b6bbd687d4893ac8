# language: em
📚: 🙈🙉🙊

  📕: 💃
    😐🎸
