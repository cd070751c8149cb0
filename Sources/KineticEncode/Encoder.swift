// GIF and PNG encoders.
