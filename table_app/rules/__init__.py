"""table_app/rules"""
